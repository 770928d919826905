// DPAPI (crypt32.dll) through koffi: the device key's private half sealed to this PC.
//
// CRYPTPROTECT_LOCAL_MACHINE, not the user's scope: the service runs as LocalSystem and an operator may start the
// same data folder from a console (start.cmd with CARD_ISSUER_DATA_DIR) under their own account; a user-scope blob
// opens only for the one account that sealed it, and for an ordinary account it is lost with a password reset. The
// machine scope means any process on this PC that can read the file can open it, so the service's data folder is
// for SYSTEM and Administrators only (service-install.ts sets its ACL). The entropy names the purpose and this PC's
// MachineGuid, so the blob is bound to this Windows installation even where the DPAPI machine key alone is not (Wine
// derives its DPAPI key from the user name and a constant, the same in every prefix).
import { freeLocal, koffi, lastError } from './win32.ts';

const crypt32 = koffi.load('crypt32.dll');
const advapi32 = koffi.load('advapi32.dll');

const DataBlob = koffi.struct({ cbData: 'uint32', pbData: 'void *' });
interface DataBlobValue {
  cbData: number;
  pbData: unknown;
}

const CryptProtectData = crypt32.func('__stdcall', 'CryptProtectData', 'bool', [
  koffi.pointer(DataBlob),
  'str16',
  koffi.pointer(DataBlob),
  'void *',
  'void *',
  'uint32',
  koffi.out(koffi.pointer(DataBlob)),
]);
const CryptUnprotectData = crypt32.func('__stdcall', 'CryptUnprotectData', 'bool', [
  koffi.pointer(DataBlob),
  'void *',
  koffi.pointer(DataBlob),
  'void *',
  'void *',
  'uint32',
  koffi.out(koffi.pointer(DataBlob)),
]);
// HKEY is a pointer-sized handle and HKEY_LOCAL_MACHINE the sign-extended (LONG)0x80000002
const RegGetValueW = advapi32.func('__stdcall', 'RegGetValueW', 'int32', ['intptr', 'str16', 'str16', 'uint32', 'void *', 'void *', koffi.inout(koffi.pointer('uint32'))]);

const HKEY_LOCAL_MACHINE = -0x7ffffffe;
const RRF_RT_REG_SZ = 0x2;
const RRF_SUBKEY_WOW6464KEY = 0x10000;
const CRYPTPROTECT_UI_FORBIDDEN = 0x1;
const CRYPTPROTECT_LOCAL_MACHINE = 0x4;
const purpose = 'campus card issuer: device key v1';

/** HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid: made when Windows is installed; null when it cannot be read. */
export function machineGuid(): string | null {
  const buffer = Buffer.alloc(512);
  const size = [buffer.length];
  const status = RegGetValueW(HKEY_LOCAL_MACHINE, 'SOFTWARE\\Microsoft\\Cryptography', 'MachineGuid', RRF_RT_REG_SZ | RRF_SUBKEY_WOW6464KEY, null, buffer, size);
  if (status !== 0) return null;
  const text = buffer.toString('utf16le', 0, Math.max(0, (size[0] ?? 0) - 2)).replace(/\0+$/, '');
  return text === '' ? null : text;
}

const entropyFor = (guid: string | null) => Buffer.from(`${purpose}\n${guid ?? ''}`, 'utf8');

function copyOut(blob: DataBlobValue): Buffer {
  try {
    // Buffer.from(Uint8Array) copies; a Buffer over the view itself would read freed memory after LocalFree
    return Buffer.from(new Uint8Array(koffi.view(blob.pbData, blob.cbData)));
  } finally {
    freeLocal(blob.pbData);
  }
}

/** The device key's sealer on Windows (DeviceIdentity's KeySealer). */
export const dpapiMachineSealer = {
  kind: 'dpapi-machine',
  seal(secret: Buffer): Buffer {
    const entropy = entropyFor(machineGuid());
    const out = {} as DataBlobValue;
    const ok = CryptProtectData({ cbData: secret.length, pbData: secret }, 'campus card issuer device key', { cbData: entropy.length, pbData: entropy }, null, null, CRYPTPROTECT_UI_FORBIDDEN | CRYPTPROTECT_LOCAL_MACHINE, out);
    if (!ok) throw new Error(`CryptProtectData failed: Win32 error ${lastError()}`);
    return copyOut(out);
  },
  /** null when this PC cannot open it: sealed on another PC (or another Windows installation). */
  open(sealed: Buffer): Buffer | null {
    const entropy = entropyFor(machineGuid());
    const out = {} as DataBlobValue;
    const ok = CryptUnprotectData({ cbData: sealed.length, pbData: sealed }, null, { cbData: entropy.length, pbData: entropy }, null, null, CRYPTPROTECT_UI_FORBIDDEN, out);
    if (!ok) return null;
    return copyOut(out);
  },
};
