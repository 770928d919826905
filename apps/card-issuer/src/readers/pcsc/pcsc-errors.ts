/**
 * The PC/SC return codes the driver tells apart (winscard.h and pcsc-lite share them). A call's LONG is signed
 * 32-bit on Windows, so a code reads as a negative number there: `>>> 0` makes it the unsigned value both name.
 */
export const pcscCodes = {
  success: 0x00000000,
  internalError: 0x80100001,
  cancelled: 0x80100002,
  invalidHandle: 0x80100003,
  invalidParameter: 0x80100004,
  insufficientBuffer: 0x80100008,
  unknownReader: 0x80100009,
  timeout: 0x8010000a,
  sharingViolation: 0x8010000b,
  noSmartcard: 0x8010000c,
  protoMismatch: 0x8010000f,
  notReady: 0x80100010,
  invalidValue: 0x80100011,
  commError: 0x80100013,
  notTransacted: 0x80100016,
  readerUnavailable: 0x80100017,
  cardUnsupported: 0x8010001c,
  noService: 0x8010001d,
  serviceStopped: 0x8010001e,
  noReadersAvailable: 0x8010002e,
  unsupportedCard: 0x80100065,
  unresponsiveCard: 0x80100066,
  unpoweredCard: 0x80100067,
  resetCard: 0x80100068,
  removedCard: 0x80100069,
} as const;

const names = new Map<number, string>(Object.entries(pcscCodes).map(([name, code]) => [code, name]));

/** A PC/SC call that answered something else than success: its function and code, e.g. "SCardConnect: removedCard (0x80100069)". */
export class PcscError extends Error {
  readonly code: number;
  constructor(
    readonly call: string,
    code: number,
  ) {
    const unsigned = code >>> 0;
    super(`${call}: ${names.get(unsigned) ?? 'PC/SC error'} (0x${unsigned.toString(16).toUpperCase().padStart(8, '0')})`);
    this.name = 'PcscError';
    this.code = unsigned;
  }
}

/** What a failed call says about the service, the reader or the card: it picks the reader code (pcsc-problems.ts). */
export type PcscFailure = 'service' | 'busy' | 'reader' | 'card' | 'other';

const failureOf = new Map<number, PcscFailure>([
  [pcscCodes.noService, 'service'],
  [pcscCodes.serviceStopped, 'service'],
  [pcscCodes.invalidHandle, 'service'],
  [pcscCodes.sharingViolation, 'busy'],
  [pcscCodes.readerUnavailable, 'reader'],
  [pcscCodes.unknownReader, 'reader'],
  [pcscCodes.noReadersAvailable, 'reader'],
  [pcscCodes.notReady, 'reader'],
  [pcscCodes.removedCard, 'card'],
  [pcscCodes.noSmartcard, 'card'],
  [pcscCodes.resetCard, 'card'],
  [pcscCodes.unpoweredCard, 'card'],
  [pcscCodes.unresponsiveCard, 'card'],
]);

export function classifyPcscFailure(error: unknown): PcscFailure {
  return error instanceof PcscError ? (failureOf.get(error.code) ?? 'other') : 'other';
}
