/**
 * The part of the PC/SC binding (npm `smartcard`, N-API, built against libpcsclite) the driver uses. It is an
 * optional dependency loaded only with CARD_READER=pcsc, so a machine without pcscd or its headers installs and
 * runs the virtual reader.
 */
export interface PcscCard {
  transmit(command: Buffer, options?: { maxRecvLength?: number }): Promise<Buffer>;
  disconnect(disposition?: number): void;
}

export interface PcscReaderHandle {
  readonly name: string;
  readonly state: number;
  readonly atr: Buffer | null;
  connect(shareMode?: number, protocol?: number): Promise<PcscCard>;
}

export interface PcscContext {
  readonly isValid: boolean;
  listReaders(): PcscReaderHandle[];
  close(): void;
}

export interface PcscBinding {
  newContext(): PcscContext;
  /** The driver holds the card alone while it works: another program's SELECT cannot slip between its commands. */
  shareExclusive: number;
  /** T=0 or T=1, whichever the card speaks. */
  anyProtocol: number;
  leaveCard: number;
  statePresent: number;
  stateMute: number;
}

export class PcscUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      'CARD_READER=pcsc needs the PC/SC binding (npm package "smartcard"), which did not load: ' +
        `${cause instanceof Error ? cause.message : String(cause)}. Install pcscd and libpcsclite-dev ` +
        '(apt-get install pcscd libpcsclite-dev), then run "npm install" again so it is built (README "Real card readers").',
    );
    this.name = 'PcscUnavailableError';
  }
}

interface SmartcardModule {
  Context: new () => PcscContext;
  SCARD_SHARE_EXCLUSIVE: number;
  SCARD_PROTOCOL_T0: number;
  SCARD_PROTOCOL_T1: number;
  SCARD_LEAVE_CARD: number;
  SCARD_STATE_PRESENT: number;
  SCARD_STATE_MUTE: number;
}

export async function loadPcscBinding(): Promise<PcscBinding> {
  let module: SmartcardModule;
  try {
    // a specifier in a variable: the type check does not need the optional package installed
    const name = 'smartcard';
    const imported = (await import(name)) as { default?: SmartcardModule } & Partial<SmartcardModule>;
    module = (imported.default ?? imported) as SmartcardModule;
    if (typeof module.Context !== 'function') throw new Error('it has no Context');
  } catch (error) {
    throw new PcscUnavailableError(error);
  }
  return {
    newContext: () => new module.Context(),
    shareExclusive: module.SCARD_SHARE_EXCLUSIVE,
    anyProtocol: module.SCARD_PROTOCOL_T0 | module.SCARD_PROTOCOL_T1,
    leaveCard: module.SCARD_LEAVE_CARD,
    statePresent: module.SCARD_STATE_PRESENT,
    stateMute: module.SCARD_STATE_MUTE,
  };
}
