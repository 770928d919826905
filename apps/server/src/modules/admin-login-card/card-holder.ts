import { codes } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';

/** An administrator as the messages name him: name and login name, as the shell's lists do. */
export function holderName(name: string | undefined, account: string): string {
  return name && name !== account ? `${name} (${account})` : account;
}

/** cardAlreadyExists (239): the holder already has an administrator card in use (one per administrator). */
export function holderHasCard(holder: string): AppError {
  return new AppError(codes.cardAlreadyExists, { values: { holder } });
}
