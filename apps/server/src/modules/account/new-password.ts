import { timingSafeEqual } from 'node:crypto';
import { codeMessage, codes } from '@campus/contracts';
import type { DigestMode, LanguageCode } from '@campus/contracts';
import { AppError, InvalidRequest } from '../../http/envelope.ts';
import { SealError } from '../password-seal/password-seal-service.ts';
import type { PasswordSealService } from '../password-seal/password-seal-service.ts';
import { passwordTip } from './account-service.ts';
import { meetsPasswordPolicy, passwordDigest } from './password.ts';

export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function badRequest(field: string, problem: string): AppError {
  return new InvalidRequest(`body/${field} ${problem}`);
}

export interface SealedNewPassword {
  /** The new password, SM2-sealed to the installation's seal key. */
  sealed: string;
  /** The digest the browser sent for it. */
  digest: string;
  /** Field names, for the 400 that names the field. */
  sealedField: string;
  digestField: string;
}

/**
 * A new password as the browser sends it (a digest, and the password sealed so that the server can check its
 * policy): the password inside the seal, which must be the one the digest is of (400 otherwise).
 */
export async function openSealedPassword(seal: PasswordSealService, mode: DigestMode, input: SealedNewPassword): Promise<string> {
  let password: string;
  try {
    password = await seal.open(input.sealed);
  } catch (error) {
    if (error instanceof SealError) throw badRequest(input.sealedField, `is not valid: ${error.message}`);
    throw error;
  }
  if (!sameDigest(passwordDigest(password, mode), input.digest)) {
    throw badRequest(input.digestField, `is not the ${mode} digest of the sealed new password`);
  }
  return password;
}

/** passwordPolicy (151) with the policy's tip, unless the password meets the policy of spec §5. */
export function requirePasswordPolicy(password: string, language: LanguageCode): void {
  if (meetsPasswordPolicy(password)) return;
  const separator = language === 'en-US' ? ': ' : '：';
  throw new AppError(codes.passwordPolicy, { detail: `${codeMessage(codes.passwordPolicy, language)}${separator}${passwordTip(language)}` });
}
