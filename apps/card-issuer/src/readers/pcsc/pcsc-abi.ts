/**
 * How the PC/SC API looks in memory on each platform the issuer runs on. A wrong width here does not fail a call:
 * it crashes the PC (with 32-bit DWORDs on 64-bit Linux the first calls seemed to work and SCardStatus then
 * segfaulted), so every width is spelt out per platform and test/pcsc-abi.test.ts checks the sizes for all of them.
 *
 * - Windows (winscard.dll) is LLP64: DWORD and LONG are 32-bit on x64 and arm64 alike, SCARDCONTEXT and SCARDHANDLE
 *   are ULONG_PTR, an ATR buffer holds 36 bytes, and the functions that take text have an A (8-bit) and a W name.
 * - pcsc-lite (libpcsclite.so.1 on Linux and the BSDs) uses the C `unsigned long` and `long`: 64-bit on 64-bit
 *   systems, its handles are LONG, and an ATR buffer holds 33 bytes.
 * - macOS's PCSC framework is pcsc-lite with 32-bit DWORD and LONG, 32-bit handles and a packed SCARD_READERSTATE.
 */
export type PcscPlatform = 'windows' | 'pcsclite' | 'macos';

export interface PcscAbi {
  platform: PcscPlatform;
  library: string;
  /** koffi's names of the C types of DWORD, LONG and the context and card handles. */
  dword: 'uint32' | 'uint64';
  long: 'int32' | 'int64';
  handle: 'uintptr_t' | 'int64' | 'int32';
  atrSize: number;
  packed: boolean;
  /** What the functions are called in the library (Windows: the A forms). */
  names: Record<'listReaders' | 'getStatusChange' | 'connect', string>;
  /** Sizes a C compiler gives the two structures, for the test and for SCARD_IO_REQUEST's cbPciLength. */
  sizes: { readerState: number; ioRequest: number };
}

export function pcscAbi(platform: NodeJS.Platform = process.platform, arch: string = process.arch): PcscAbi {
  const wide = ['x64', 'arm64', 'ppc64', 'riscv64', 'loong64', 's390x', 'mips64el'].includes(arch);
  if (platform === 'win32') {
    return {
      platform: 'windows',
      library: 'winscard.dll',
      dword: 'uint32',
      long: 'int32',
      handle: 'uintptr_t',
      atrSize: 36,
      packed: false,
      names: { listReaders: 'SCardListReadersA', getStatusChange: 'SCardGetStatusChangeA', connect: 'SCardConnectA' },
      // two pointers, three DWORDs, 36 bytes, padded to the pointer's alignment
      sizes: wide ? { readerState: 64, ioRequest: 8 } : { readerState: 56, ioRequest: 8 },
    };
  }
  const plain = { listReaders: 'SCardListReaders', getStatusChange: 'SCardGetStatusChange', connect: 'SCardConnect' };
  if (platform === 'darwin') {
    return {
      platform: 'macos',
      library: '/System/Library/Frameworks/PCSC.framework/PCSC',
      dword: 'uint32',
      long: 'int32',
      handle: 'int32',
      atrSize: 33,
      packed: true,
      names: plain,
      sizes: { readerState: 8 + 8 + 4 + 4 + 4 + 33, ioRequest: 8 },
    };
  }
  return {
    platform: 'pcsclite',
    library: 'libpcsclite.so.1',
    dword: wide ? 'uint64' : 'uint32',
    long: wide ? 'int64' : 'int32',
    handle: wide ? 'int64' : 'int32',
    atrSize: 33,
    packed: false,
    names: plain,
    sizes: wide ? { readerState: 80, ioRequest: 16 } : { readerState: 56, ioRequest: 8 },
  };
}

/** The C prototypes of the calls the driver makes, in koffi's syntax, for `abi`. */
export type PcscCall = 'establishContext' | 'releaseContext' | 'isValidContext' | 'listReaders' | 'getStatusChange' | 'connect' | 'disconnect' | 'transmit';

export function pcscPrototypes(abi: PcscAbi): Record<PcscCall, string> {
  const { dword: D, long: L, handle: H, names } = abi;
  return {
    establishContext: `${L} SCardEstablishContext(${D} dwScope, void *pvReserved1, void *pvReserved2, _Out_ ${H} *phContext)`,
    releaseContext: `${L} SCardReleaseContext(${H} hContext)`,
    isValidContext: `${L} SCardIsValidContext(${H} hContext)`,
    listReaders: `${L} ${names.listReaders}(${H} hContext, const char *mszGroups, _Out_ uint8_t *mszReaders, _Inout_ ${D} *pcchReaders)`,
    getStatusChange: `${L} ${names.getStatusChange}(${H} hContext, ${D} dwTimeout, _Inout_ SCARD_READERSTATE *rgReaderStates, ${D} cReaders)`,
    connect: `${L} ${names.connect}(${H} hContext, const char *szReader, ${D} dwShareMode, ${D} dwPreferredProtocols, _Out_ ${H} *phCard, _Out_ ${D} *pdwActiveProtocol)`,
    disconnect: `${L} SCardDisconnect(${H} hCard, ${D} dwDisposition)`,
    transmit: `${L} SCardTransmit(${H} hCard, const SCARD_IO_REQUEST *pioSendPci, const uint8_t *pbSendBuffer, ${D} cbSendLength, void *pioRecvPci, _Out_ uint8_t *pbRecvBuffer, _Inout_ ${D} *pcbRecvLength)`,
  };
}

/** The constants the driver uses: the same numbers in winscard.h and pcsc-lite's pcsclite.h. */
export const pcscConstants = {
  scopeSystem: 2,
  shareExclusive: 1,
  protocolT0: 1,
  protocolT1: 2,
  leaveCard: 0,
  stateUnaware: 0,
  stateEmpty: 0x10,
  statePresent: 0x20,
  stateMute: 0x200,
  infinite: 0xffffffff,
} as const;
