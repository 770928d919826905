import koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { pcscAbi, pcscPrototypes } from '../src/readers/pcsc/pcsc-abi.ts';
import { PcscError, classifyPcscFailure, pcscCodes } from '../src/readers/pcsc/pcsc-errors.ts';
import { pcscStructs } from '../src/readers/pcsc/pcsc-ffi.ts';

// A wrong width in an FFI declaration does not fail a call, it crashes the operator's PC: the layouts below are what
// a C compiler gives winscard.h (Windows SDK) and pcsclite.h, and every platform's declaration is checked on any host.
const layouts = [
  { platform: 'win32', arch: 'x64', readerState: 64, atrAt: 28, ioRequest: 8, dword: 4, handle: 8, library: 'winscard.dll', connect: 'SCardConnectA' },
  { platform: 'win32', arch: 'arm64', readerState: 64, atrAt: 28, ioRequest: 8, dword: 4, handle: 8, library: 'winscard.dll', connect: 'SCardConnectA' },
  { platform: 'linux', arch: 'x64', readerState: 80, atrAt: 40, ioRequest: 16, dword: 8, handle: 8, library: 'libpcsclite.so.1', connect: 'SCardConnect' },
  { platform: 'linux', arch: 'arm64', readerState: 80, atrAt: 40, ioRequest: 16, dword: 8, handle: 8, library: 'libpcsclite.so.1', connect: 'SCardConnect' },
  { platform: 'darwin', arch: 'arm64', readerState: 61, atrAt: 28, ioRequest: 8, dword: 4, handle: 4, library: '/System/Library/Frameworks/PCSC.framework/PCSC', connect: 'SCardConnect' },
] as const;

describe('the PC/SC declarations of each platform', () => {
  for (const expected of layouts) {
    // pointers are this host's (64-bit) size: the 64-bit layouts are the ones a declaration can be checked for here
    it(`${expected.platform}-${expected.arch}: SCARD_READERSTATE ${expected.readerState} bytes, SCARD_IO_REQUEST ${expected.ioRequest}`, () => {
      const abi = pcscAbi(expected.platform, expected.arch);
      const { readerState, ioRequest } = pcscStructs(koffi, abi);
      expect(koffi.sizeof(readerState)).toBe(expected.readerState);
      expect(koffi.sizeof(readerState)).toBe(abi.sizes.readerState);
      expect(koffi.offsetof(readerState, 'rgbAtr')).toBe(expected.atrAt);
      expect(koffi.sizeof(ioRequest)).toBe(expected.ioRequest);
      expect(koffi.sizeof(ioRequest)).toBe(abi.sizes.ioRequest);
      expect(koffi.sizeof(abi.dword)).toBe(expected.dword);
      expect(koffi.sizeof(abi.long)).toBe(expected.dword);
      expect(koffi.sizeof(abi.handle)).toBe(expected.handle);
      expect(abi.library).toBe(expected.library);
      expect(abi.names.connect).toBe(expected.connect);
    });
  }

  it('every prototype parses, with the DWORD, LONG and handle types of its platform', () => {
    for (const expected of layouts) {
      const abi = pcscAbi(expected.platform, expected.arch);
      const { readerState, ioRequest } = pcscStructs(koffi, abi);
      for (const [call, prototype] of Object.entries(pcscPrototypes(abi))) {
        const named = prototype.replace('SCARD_READERSTATE', `RS_${expected.platform}_${expected.arch}_${call}`).replace('SCARD_IO_REQUEST', `IO_${expected.platform}_${expected.arch}_${call}`);
        koffi.alias(`RS_${expected.platform}_${expected.arch}_${call}`, readerState);
        koffi.alias(`IO_${expected.platform}_${expected.arch}_${call}`, ioRequest);
        type Arg = { type: { size: number; ref?: { size: number } }; direction: string };
        const unique = named.replace(/ (\w+)\(/, ` P_${expected.platform}_${expected.arch}_$1(`);
        const info = (koffi.type as unknown as (t: unknown) => { proto: { result: { size: number }; arguments: Arg[] } })(koffi.proto(unique));
        const args = info.proto.arguments;
        const where = `${expected.platform}-${expected.arch} ${call}`;
        // every call answers a LONG
        expect(info.proto.result.size, where).toBe(expected.dword);
        // the first argument is a context or card handle, except SCardEstablishContext's scope (a DWORD)
        expect(args[0]!.type.size, where).toBe(call === 'establishContext' ? expected.dword : expected.handle);
        // what a call writes back: a handle, or a DWORD count; a wrong width there overwrites the caller's memory
        const written = args.filter((arg) => arg.direction !== 'Input').map((arg) => arg.type.ref?.size);
        const wanted = { establishContext: [expected.handle], connect: [expected.handle, expected.dword], listReaders: [1, expected.dword], transmit: [1, expected.dword], getStatusChange: [expected.readerState] }[call as string] ?? [];
        expect(written, where).toEqual(wanted);
      }
    }
  });
});

describe('PC/SC return codes', () => {
  it('reads a Windows code (a negative 32-bit LONG) and a pcsc-lite one (a positive 64-bit LONG) alike', () => {
    const windows = new PcscError('SCardTransmit', 0x80100069 | 0);
    const linux = new PcscError('SCardTransmit', 0x80100069);
    expect(windows.code).toBe(pcscCodes.removedCard);
    expect(linux.code).toBe(pcscCodes.removedCard);
    expect(windows.message).toBe('SCardTransmit: removedCard (0x80100069)');
    expect(classifyPcscFailure(windows)).toBe('card');
  });

  it('tells the service, the reader, a busy card and the card apart; anything else is other', () => {
    expect(classifyPcscFailure(new PcscError('SCardEstablishContext', pcscCodes.noService))).toBe('service');
    expect(classifyPcscFailure(new PcscError('SCardListReaders', pcscCodes.serviceStopped))).toBe('service');
    expect(classifyPcscFailure(new PcscError('SCardConnect', pcscCodes.sharingViolation))).toBe('busy');
    expect(classifyPcscFailure(new PcscError('SCardConnect', pcscCodes.readerUnavailable))).toBe('reader');
    expect(classifyPcscFailure(new PcscError('SCardTransmit', pcscCodes.unresponsiveCard))).toBe('card');
    expect(classifyPcscFailure(new PcscError('SCardTransmit', pcscCodes.notTransacted))).toBe('other');
    expect(classifyPcscFailure(new Error('SCardTransmit: removedCard'))).toBe('other');
  });
});
