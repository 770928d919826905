import { normaliseFixedNo } from '@campus/card-crypto';
import { InvalidRequest } from '../../http/envelope.ts';

/** A card's fixed number as the cards carry it (upper-case hex); a 400 naming the field otherwise. */
export function fixedNoOf(fixedNo: string): string {
  try {
    return normaliseFixedNo(fixedNo);
  } catch {
    throw new InvalidRequest('body/fixedNo must be 8 to 20 hex digits');
  }
}

/** The bytes of a hex field (a card image); a 400 naming the field otherwise. */
export function hexBytes(hex: string, field: string): Buffer {
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new InvalidRequest(`body/${field} must be hex bytes`);
  return Buffer.from(hex, 'hex');
}
