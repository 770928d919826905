import { describe, expect, it } from 'vitest';
import { isPermissionDenied, isShellApiError, ShellRequestError } from './api-error.ts';

/** The shape of the shell's RequestError (apps/shell/src/lib/request.ts). */
class LikeShellRequestError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly status: number | null,
  ) {
    super(message);
  }
}

describe('api errors', () => {
  it('recognises rejections of the ShellApiError shape', () => {
    expect(isShellApiError(new ShellRequestError('x', { status: 500 }))).toBe(true);
    expect(isShellApiError(new LikeShellRequestError('x', 101, null))).toBe(true);
    expect(isShellApiError(new Error('plain'))).toBe(false);
    expect(isShellApiError({ status: 'no' })).toBe(false);
    expect(isShellApiError(null)).toBe(false);
  });

  it('a missing right is HTTP 403 or business code 131', () => {
    expect(isPermissionDenied(new LikeShellRequestError('Request failed with status code 403', 131, 403))).toBe(true);
    expect(isPermissionDenied(new ShellRequestError('No permission', { code: 131 }))).toBe(true);
    expect(isPermissionDenied(new ShellRequestError('x', { status: 403 }))).toBe(true);
    expect(isPermissionDenied(new ShellRequestError('x', { status: 500, code: 999 }))).toBe(false);
    expect(isPermissionDenied(new Error('403'))).toBe(false);
  });
});
