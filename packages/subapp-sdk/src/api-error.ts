import type { ShellApiError } from './shared-state.ts';

/** The envelope code of a missing right (contracts `codes.noPermission`); the server answers it with HTTP 403. */
export const noPermissionCode = 131;

/** The Error the SDK's own api (standalone mode) rejects with; the shell's request layer has the same shape. */
export class ShellRequestError extends Error implements ShellApiError {
  readonly code: number | null;
  readonly status: number | null;
  readonly data?: unknown;
  constructor(message: string, init: { code?: number | null; status?: number | null; data?: unknown } = {}) {
    super(message);
    this.name = 'ShellRequestError';
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.data = init.data;
  }
}

/** True for a rejection of ShellApi: an object with a numeric-or-null `code` or `status`. */
export function isShellApiError(error: unknown): error is ShellApiError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  const numberOrNull = (value: unknown) => value === null || typeof value === 'number';
  return ('code' in error || 'status' in error) && (code === undefined || numberOrNull(code)) && (status === undefined || numberOrNull(status));
}

/** The call was refused for a missing right: HTTP 403, or the no-permission business code. */
export function isPermissionDenied(error: unknown): boolean {
  return isShellApiError(error) && (error.status === 403 || error.code === noPermissionCode);
}
