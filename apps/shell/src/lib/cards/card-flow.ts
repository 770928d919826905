import { cardTimings, isInterruptedWrite, isRetryableReaderCode, readerCodes } from '@campus/contracts';
import { IssuerError } from './card-issuer.ts';
import { apiPostReply, RequestError } from '../request.ts';
import type { RequestOptions } from '../request.ts';

/** What a card dialog shows while it works (spec §4 "Card reader flow": the operator always sees it). */
export type CardPhase = 'connecting' | 'waitingForCard' | 'reading' | 'checking' | 'preparing' | 'writing' | 'rewriting' | 'confirming' | 'verifying' | 'loadingKey' | 'signingIn';

export interface CardProgress {
  phase: CardPhase;
  /** The reader's own words for the last retry (no card, interrupted write, busy), if any. */
  detail: string | null;
}

/** A flow that cannot go on: what to tell the operator, and the code behind it. */
export class CardFlowError extends Error {
  constructor(
    message: string,
    readonly code: number,
    /** The issuer does not answer at all (spec §8 'card reader not installed or configured'). */
    readonly notInstalled = false,
    /** The issuer is too old for this server: it must be updated from the Tools page. */
    readonly outdatedIssuer = false,
  ) {
    super(message);
    this.name = 'CardFlowError';
  }
}

export interface FlowContext {
  signal: AbortSignal;
  report: (progress: CardProgress) => void;
  /** Waits `ms` unless aborted first (tests pass a fake). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

function asFlowError(error: unknown): unknown {
  if (error instanceof IssuerError) return new CardFlowError(error.message, error.code, error.kind === 'notInstalled', error.kind === 'outdated');
  if (error instanceof RequestError) return new CardFlowError(error.message, error.code ?? 0);
  return error;
}

/**
 * One reader step with the retries of spec §4: no card (990481) → "place the card", again every 3 s; an
 * interrupted write (990321/990322) → write again at once; any other code at or above 990299 (busy, not
 * connected) → again after 3 s; below it → final. Gives up after cardTimings.maxRetries.
 */
export async function readerStep<T>(ctx: FlowContext, phase: CardPhase, run: () => Promise<T>): Promise<T> {
  let detail: string | null = null;
  for (let attempt = 0; ; attempt += 1) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.report({ phase, detail });
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof IssuerError) || error.kind !== 'failed' || !isRetryableReaderCode(error.code) || attempt >= cardTimings.maxRetries) throw asFlowError(error);
      detail = error.message;
      if (error.code === readerCodes.noCard) {
        ctx.report({ phase: 'waitingForCard', detail });
        await ctx.sleep(cardTimings.retryMs, ctx.signal);
      } else if (isInterruptedWrite(error.code)) {
        phase = 'rewriting';
      } else {
        await ctx.sleep(cardTimings.retryMs, ctx.signal);
      }
    }
  }
}

/** A server step: the envelope's message on failure (shown in the dialog, not as a toast). */
export async function serverStep<T>(ctx: FlowContext, phase: CardPhase, url: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  if (ctx.signal.aborted) throw ctx.signal.reason;
  ctx.report({ phase, detail: null });
  try {
    return (await apiPostReply<T>(url, body, options)).data;
  } catch (error) {
    throw asFlowError(error);
  }
}
