import type { CardWriteConfirm, PreparedCardWrite } from '@campus/contracts';
import { readerStep, serverStep } from './card-flow.ts';
import type { CardPhase, FlowContext } from './card-flow.ts';
import { apiPostRaw } from '../request.ts';
import type { RequestOptions } from '../request.ts';

/** Phase two of a prepared card operation (docs/cards.md "two-phase"): where it is confirmed, and the body. */
export interface PreparedConfirm {
  url: string;
  /** The confirm's body: isSuccess true when the card holds what was prepared, false to forget the prepare. */
  body: (isSuccess: boolean) => unknown;
  options?: RequestOptions;
}

/**
 * Tells the server a prepared operation did not happen (isSuccess false), so nothing stays half-done. Sent also
 * after Cancel: the dialog's signal is not used, and a failure here changes nothing (the prepare expires).
 */
export async function forgetPrepared(confirm: PreparedConfirm): Promise<void> {
  await apiPostRaw(confirm.url, confirm.body(false), confirm.options).catch(() => undefined);
}

/**
 * Runs the reader steps of a prepared operation, then confirms it. Steps that fail or are cancelled are forgotten
 * on the server; steps that landed are confirmed even when the operator cancelled meanwhile, or the card would
 * hold what the server never recorded.
 */
export async function completePrepared(ctx: FlowContext, onCard: () => Promise<unknown>, confirm: PreparedConfirm): Promise<void> {
  try {
    await onCard();
  } catch (error) {
    await forgetPrepared(confirm);
    throw error;
  }
  if (ctx.signal.aborted) {
    await apiPostRaw(confirm.url, confirm.body(true), confirm.options).catch(() => undefined);
    throw ctx.signal.reason;
  }
  await serverStep(ctx, 'confirming', confirm.url, confirm.body(true), confirm.options);
}

/** The confirm of a prepared write: {prepareId, isSuccess} to `url`. */
export function writeConfirm(prepared: PreparedCardWrite, url: string, options: RequestOptions): PreparedConfirm {
  return { url, body: (isSuccess) => ({ prepareId: prepared.prepareId, isSuccess }) satisfies CardWriteConfirm, options };
}

/** How a reader step runs: readerStep, or a variant (the system key loaded into the issuer first when it has none). */
export type ReaderStepRunner = <T>(ctx: FlowContext, phase: CardPhase, run: () => Promise<T>) => Promise<T>;

/**
 * Writes a prepared image and confirms it; a card that holds the image already (a write whose confirm was lost,
 * `alreadyWritten`) is confirmed without writing.
 */
export async function writePrepared(ctx: FlowContext, prepared: PreparedCardWrite, write: () => Promise<unknown>, confirm: PreparedConfirm, step: ReaderStepRunner = readerStep): Promise<void> {
  await completePrepared(ctx, prepared.alreadyWritten ? async () => undefined : () => step(ctx, 'writing', write), confirm);
}
