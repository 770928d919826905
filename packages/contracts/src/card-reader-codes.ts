/**
 * Result codes of the local card issuer (spec §4 "Card reader flow", §8; docs/cards.md). The envelope is the
 * server's: success when code % 10 === 0. A code at or above 990299 is worth retrying (990481 every 3 s;
 * 990321/990322 by writing again); below it, a code found while checking a card is final.
 */
export const readerCodes = {
  ok: 0,
  // retryable
  noCard: 990481,
  writeInterruptedBeforeChange: 990321,
  writeInterruptedWhileCommitting: 990322,
  readerBusy: 990351,
  readerNotConnected: 990361,
  // final
  wrongCardKind: 990201,
  cardAlreadyIssued: 990202,
  cardNotBlank: 990203,
  unknownCard: 990204,
  keyMismatch: 990205,
  customerPasswordWrong: 990206,
  noSystemKey: 990207,
  differentCard: 990208,
  notPaired: 990209,
  gatewayUnreachable: 990211,
  tooManyPairings: 990212,
} as const;

export type ReaderCode = (typeof readerCodes)[keyof typeof readerCodes];

/** The first code that is not final: from here on a failure is worth another try (spec §4). */
export const firstRetryableReaderCode = 990299;

/** Whether a failure is worth retrying (no card yet, interrupted write, busy or unplugged reader). */
export function isRetryableReaderCode(code: number): boolean {
  return code % 10 !== 0 && code >= firstRetryableReaderCode;
}

/** Whether a failure while checking a card ends the dialog (spec §4: below 990299). */
export function isFinalReaderCode(code: number): boolean {
  return code % 10 !== 0 && code < firstRetryableReaderCode;
}

/** Whether writing again is the retry (spec §4: 990321 and 990322 during writing). */
export function isInterruptedWrite(code: number): boolean {
  return code === readerCodes.writeInterruptedBeforeChange || code === readerCodes.writeInterruptedWhileCommitting;
}
