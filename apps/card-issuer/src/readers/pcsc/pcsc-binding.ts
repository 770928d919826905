import type koffiModule from 'koffi';
import { pcscAbi } from './pcsc-abi.ts';
import { ffiPcscBinding } from './pcsc-ffi.ts';

/** What the driver needs of PC/SC: contexts, readers with their state and ATR, exclusive connections, APDUs. */
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
  constructor(library: string, cause: unknown) {
    super(
      `CARD_READER=pcsc needs the PC/SC library ${library}, which did not load (${cause instanceof Error ? cause.message : String(cause)}). ` +
        (process.platform === 'linux'
          ? 'Install the PC/SC service and its library: sudo apt-get install pcscd libpcsclite1 (docs/operator-pc.md).'
          : process.platform === 'win32'
            ? 'It is part of Windows: this Windows may be stripped of its smart-card support (docs/operator-pc.md).'
            : 'See docs/operator-pc.md for the systems the issuer drives real readers on.'),
    );
    this.name = 'PcscUnavailableError';
  }
}

/**
 * The PC/SC binding of this platform: winscard.dll, libpcsclite.so.1 or macOS's PCSC framework, called through koffi
 * (an FFI whose prebuilt binaries come inside npm packages, so nothing is compiled on any machine). Loaded only with
 * CARD_READER=pcsc, so a PC without the library still runs the virtual reader.
 */
export async function loadPcscBinding(): Promise<PcscBinding> {
  const abi = pcscAbi();
  let koffi: typeof koffiModule;
  try {
    koffi = (await import('koffi')).default;
  } catch (error) {
    // koffi comes inside every download and every npm install: without it the installation itself is broken
    throw new Error(`CARD_READER=pcsc needs koffi (the FFI the PC/SC driver calls the system's PC/SC library through), which did not load: ${error instanceof Error ? error.message : String(error)}. Unpack the download again, or run npm install.`);
  }
  let library: ReturnType<typeof koffi.load>;
  try {
    library = koffi.load(abi.library);
  } catch (error) {
    throw new PcscUnavailableError(abi.library, error);
  }
  return ffiPcscBinding(koffi, abi, library);
}
