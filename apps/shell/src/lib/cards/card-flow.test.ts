import { describe, expect, it, vi } from 'vitest';
import { cardTimings, readerCodes } from '@campus/contracts';
import { IssuerError } from './card-issuer.ts';
import { CardFlowError, readerStep } from './card-flow.ts';
import type { CardProgress, FlowContext } from './card-flow.ts';

function context() {
  const progress: CardProgress[] = [];
  const waits: number[] = [];
  const controller = new AbortController();
  const ctx: FlowContext = {
    signal: controller.signal,
    report: (p) => progress.push(p),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  return { ctx, progress, waits, controller };
}

const failed = (code: number) => new IssuerError('failed', code, `reader said ${code}`);

describe('a reader step (spec §4 "Card reader flow")', () => {
  it('asks for the card and tries again every 3 s while there is none', async () => {
    const { ctx, progress, waits } = context();
    const run = vi.fn().mockRejectedValueOnce(failed(readerCodes.noCard)).mockRejectedValueOnce(failed(readerCodes.noCard)).mockResolvedValue('read');
    await expect(readerStep(ctx, 'reading', run)).resolves.toBe('read');
    expect(run).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([3000, 3000]);
    expect(progress.map((p) => p.phase)).toEqual(['reading', 'waitingForCard', 'reading', 'waitingForCard', 'reading']);
    expect(progress[1]?.detail).toBe(`reader said ${readerCodes.noCard}`);
  });

  it('writes again at once after an interrupted write (990321, 990322), and says so', async () => {
    const { ctx, progress, waits } = context();
    const run = vi.fn().mockRejectedValueOnce(failed(readerCodes.writeInterruptedBeforeChange)).mockRejectedValueOnce(failed(readerCodes.writeInterruptedWhileCommitting)).mockResolvedValue(null);
    await readerStep(ctx, 'writing', run);
    expect(run).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([]);
    expect(progress.map((p) => p.phase)).toEqual(['writing', 'rewriting', 'rewriting']);
  });

  it('retries a busy or unplugged reader after 3 s; a code below 990299 is final', async () => {
    const { ctx, waits } = context();
    const run = vi.fn().mockRejectedValueOnce(failed(readerCodes.readerBusy)).mockRejectedValueOnce(failed(readerCodes.cardNotBlank));
    const error = await readerStep(ctx, 'checking', run).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardFlowError);
    expect(error).toMatchObject({ code: readerCodes.cardNotBlank, message: `reader said ${readerCodes.cardNotBlank}`, notInstalled: false });
    expect(waits).toEqual([3000]);
  });

  it('an issuer that does not answer is "not installed": final at once', async () => {
    const { ctx } = context();
    const run = vi.fn().mockRejectedValue(new IssuerError('notInstalled', 0, 'card reader not installed or configured'));
    await expect(readerStep(ctx, 'connecting', run)).rejects.toMatchObject({ notInstalled: true });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('gives up after the retry limit, and stops when cancelled', async () => {
    const { ctx } = context();
    const run = vi.fn().mockRejectedValue(failed(readerCodes.noCard));
    await expect(readerStep(ctx, 'reading', run)).rejects.toMatchObject({ code: readerCodes.noCard });
    expect(run).toHaveBeenCalledTimes(cardTimings.maxRetries + 1);

    const cancelled = context();
    const slow = vi.fn().mockImplementation(async () => {
      cancelled.controller.abort(new Error('cancelled'));
      throw failed(readerCodes.noCard);
    });
    await expect(readerStep(cancelled.ctx, 'reading', slow)).rejects.toThrow('cancelled');
    expect(slow).toHaveBeenCalledTimes(1);
  });
});
