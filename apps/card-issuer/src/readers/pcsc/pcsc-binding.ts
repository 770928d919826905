import type koffiModule from 'koffi';
import { pcscAbi } from './pcsc-abi.ts';
import { ffiPcscBinding } from './pcsc-ffi.ts';
import { consoleMessages } from '../../console-messages.ts';
import { LocalisedError, joinLocalised } from '../../localised.ts';

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

const causeText = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** The system's PC/SC library did not load: which one, why (the system's words) and what to do on this platform. */
export class PcscUnavailableError extends LocalisedError {
  constructor(library: string, cause: unknown, platform: NodeJS.Platform = process.platform) {
    const advice = platform === 'linux' ? consoleMessages.installPcscOnLinux : platform === 'win32' ? consoleMessages.pcscIsPartOfWindows : consoleMessages.pcscOtherSystems;
    super(joinLocalised([consoleMessages.pcscLibraryMissing(library, causeText(cause)), advice], ' ', ''));
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
    throw new LocalisedError(consoleMessages.koffiMissing(causeText(error)));
  }
  let library: ReturnType<typeof koffi.load>;
  try {
    library = koffi.load(abi.library);
  } catch (error) {
    throw new PcscUnavailableError(abi.library, error);
  }
  return ffiPcscBinding(koffi, abi, library);
}
