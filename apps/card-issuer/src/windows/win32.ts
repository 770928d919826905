// koffi over kernel32.dll: what every Windows module here needs. Only modules that run on Windows import this file
// (the issuer loads them with import() on win32 only), so Linux never loads a Windows library. koffi is required
// here, not imported: a bundler hoists a static import of an external package to the bundle's top, which would load
// koffi at every start of the issuer on every platform.
import { createRequire } from 'node:module';
import type * as KoffiModule from 'koffi';

export const koffi = createRequire(import.meta.url)('koffi') as typeof KoffiModule;

export const kernel32 = koffi.load('kernel32.dll');

const getLastError = kernel32.func('__stdcall', 'GetLastError', 'uint32', []);
const localFree = kernel32.func('__stdcall', 'LocalFree', 'void *', ['void *']);
const getUserDefaultUILanguage = kernel32.func('__stdcall', 'GetUserDefaultUILanguage', 'uint16', []);

/**
 * The Win32 error of the koffi call just made: koffi keeps each call's last-error value aside (in the TEB), so what
 * Node and V8 do between two calls does not change it.
 */
export const lastError = (): number => getLastError() as number;

export const freeLocal = (pointer: unknown): void => {
  if (pointer) localFree(pointer);
};

/** The user's UI language (LANGID), e.g. 0x0804 for zh-CN; null when it cannot be asked. */
export function uiLanguageId(): number | null {
  try {
    return getUserDefaultUILanguage() as number;
  } catch {
    return null;
  }
}

export const win32Errors = {
  accessDenied: 5,
  invalidData: 13,
  callNotImplemented: 120,
  serviceAlreadyRunning: 1056,
  serviceDoesNotExist: 1060,
  serviceNotActive: 1062,
  failedServiceControllerConnect: 1063,
  serviceSpecificError: 1066,
  serviceExists: 1073,
  serviceMarkedForDelete: 1072,
} as const;
