import type koffiModule from 'koffi';
import type { LibraryHandle, TypeObject } from 'koffi';
import type { PcscAbi, PcscCall } from './pcsc-abi.ts';
import { pcscConstants, pcscPrototypes } from './pcsc-abi.ts';
import type { PcscBinding, PcscCard, PcscContext, PcscReaderHandle } from './pcsc-binding.ts';
import { PcscError, pcscCodes } from './pcsc-errors.ts';

type Koffi = typeof koffiModule;
type KoffiFunction = ReturnType<LibraryHandle['func']>;
type Calls = Record<PcscCall, KoffiFunction>;

/** The two structures of `abi`, declared for koffi (anonymous: one process may declare them for several ABIs). */
export function pcscStructs(koffi: Koffi, abi: PcscAbi): { readerState: TypeObject; ioRequest: TypeObject } {
  const fields = {
    szReader: 'const char *',
    pvUserData: 'void *',
    dwCurrentState: abi.dword,
    dwEventState: abi.dword,
    cbAtr: abi.dword,
    rgbAtr: koffi.array('uint8_t', abi.atrSize, 'Typed'),
  };
  return {
    readerState: abi.packed ? koffi.pack(fields) : koffi.struct(fields),
    ioRequest: koffi.struct({ dwProtocol: abi.dword, cbPciLength: abi.dword }),
  };
}

/** A call's LONG, checked: anything but success throws as a PcscError naming the call. */
function check(call: string, rv: number | bigint): void {
  const code = Number(rv) >>> 0;
  if (code !== pcscCodes.success) throw new PcscError(call, code);
}

/** A DWORD or handle koffi answers as a number or, for 64-bit values, possibly a bigint. */
const num = (value: unknown): number => (typeof value === 'bigint' ? Number(value) : (value as number));

function callAsync(fn: KoffiFunction, ...args: unknown[]): Promise<number> {
  return new Promise((resolve, reject) => {
    fn.async(...args, (error: unknown, rv: number | bigint) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(Number(rv))));
  });
}

/** The names in a multi-string (names separated by NUL, ended by two). */
function multiString(bytes: Uint8Array, length: number): string[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(length, bytes.length))
    .toString('latin1')
    .split('\0')
    .filter((name) => name !== '');
}

class FfiCard implements PcscCard {
  private readonly sendPci: { dwProtocol: number; cbPciLength: number };

  constructor(
    private readonly calls: Calls,
    private readonly handle: number | bigint,
    protocol: number,
    ioRequestSize: number,
  ) {
    this.sendPci = { dwProtocol: protocol, cbPciLength: ioRequestSize };
  }

  async transmit(command: Buffer, options: { maxRecvLength?: number } = {}): Promise<Buffer> {
    const answer = Buffer.alloc(options.maxRecvLength ?? 258);
    const length = [answer.length];
    const rv = await callAsync(this.calls.transmit, this.handle, this.sendPci, command, command.length, null, answer, length);
    check('SCardTransmit', rv);
    return Buffer.from(answer.subarray(0, num(length[0])));
  }

  disconnect(disposition: number = pcscConstants.leaveCard): void {
    check('SCardDisconnect', this.calls.disconnect(this.handle, disposition) as number);
  }
}

class FfiContext implements PcscContext {
  private closed = false;

  constructor(
    private readonly calls: Calls,
    private readonly handle: number | bigint,
    private readonly abi: PcscAbi,
  ) {}

  get isValid(): boolean {
    return !this.closed && (Number(this.calls.isValidContext(this.handle)) >>> 0) === pcscCodes.success;
  }

  private readerNames(): string[] {
    const size = [0];
    const first = Number(this.calls.listReaders(this.handle, null, null, size)) >>> 0;
    if (first === pcscCodes.noReadersAvailable) return [];
    check('SCardListReaders', first);
    const names = new Uint8Array(num(size[0]));
    const second = Number(this.calls.listReaders(this.handle, null, names, size)) >>> 0;
    if (second === pcscCodes.noReadersAvailable) return [];
    check('SCardListReaders', second);
    return multiString(names, num(size[0]));
  }

  /**
   * Each reader's state as it is now: SCardGetStatusChange with "unaware" and no wait answers at once (Wine 10 never
   * waits at all, so nothing here may rely on it blocking). The high 16 bits count the insertions and removals.
   */
  listReaders(): PcscReaderHandle[] {
    return this.readerNames().map((name) => {
      const state = { szReader: name, pvUserData: null, dwCurrentState: pcscConstants.stateUnaware, dwEventState: 0, cbAtr: this.abi.atrSize, rgbAtr: new Uint8Array(this.abi.atrSize) };
      const rv = Number(this.calls.getStatusChange(this.handle, 0, state, 1)) >>> 0;
      if (rv !== pcscCodes.timeout) check('SCardGetStatusChange', rv);
      const eventState = num(state.dwEventState);
      const atrLength = Math.min(num(state.cbAtr), this.abi.atrSize);
      const atr = (eventState & pcscConstants.statePresent) !== 0 && atrLength > 0 ? Buffer.from(state.rgbAtr.subarray(0, atrLength)) : null;
      return { name, state: eventState >>> 0, atr, connect: (share?: number, protocols?: number) => this.connect(name, share, protocols) };
    });
  }

  private async connect(name: string, share: number = pcscConstants.shareExclusive, protocols: number = pcscConstants.protocolT0 | pcscConstants.protocolT1): Promise<PcscCard> {
    const card = [0];
    const protocol = [0];
    check('SCardConnect', await callAsync(this.calls.connect, this.handle, name, share, protocols, card, protocol));
    return new FfiCard(this.calls, card[0]!, num(protocol[0]), this.abi.sizes.ioRequest);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    check('SCardReleaseContext', this.calls.releaseContext(this.handle) as number);
  }
}

/** The PC/SC binding over `library` (winscard.dll, libpcsclite.so.1 or the PCSC framework), loaded through koffi. */
export function ffiPcscBinding(koffi: Koffi, abi: PcscAbi, library: LibraryHandle = koffi.load(abi.library)): PcscBinding {
  const { readerState, ioRequest } = pcscStructs(koffi, abi);
  // the prototypes name the structures: alias them for this library's declarations
  const types = { SCARD_READERSTATE: readerState, SCARD_IO_REQUEST: ioRequest };
  const prototypes = pcscPrototypes(abi);
  const calls = {} as Calls;
  for (const [key, prototype] of Object.entries(prototypes) as [keyof Calls, string][]) {
    calls[key] = library.func(withTypes(koffi, prototype, types));
  }
  return {
    newContext: () => {
      const handle = [0];
      check('SCardEstablishContext', calls.establishContext(pcscConstants.scopeSystem, null, null, handle) as number);
      return new FfiContext(calls, handle[0]!, abi);
    },
    shareExclusive: pcscConstants.shareExclusive,
    anyProtocol: pcscConstants.protocolT0 | pcscConstants.protocolT1,
    leaveCard: pcscConstants.leaveCard,
    statePresent: pcscConstants.statePresent,
    stateMute: pcscConstants.stateMute,
  };
}

let aliases = 0;
/** The prototype with SCARD_READERSTATE and SCARD_IO_REQUEST replaced by unique aliases of this ABI's structures. */
function withTypes(koffi: Koffi, prototype: string, types: Record<string, TypeObject>): string {
  let result = prototype;
  for (const [name, type] of Object.entries(types)) {
    if (!result.includes(name)) continue;
    aliases += 1;
    const alias = `${name}_${aliases}`;
    koffi.alias(alias, type);
    result = result.replaceAll(name, alias);
  }
  return result;
}
