import type { BusinessCode } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';

/**
 * What the CAS client refuses: an AppError with the ssoXxx code (the user sees that code's message in their
 * language, never the provider's words) and `logDetail`, the finding for the operation log: the CAS error code of an
 * authenticationFailure (INVALID_TICKET, INVALID_SERVICE, …), or what was wrong with the answer. It never holds a
 * ticket or an attribute value.
 */
export class CasRefusal extends AppError {
  readonly logDetail: string;

  constructor(code: BusinessCode, { status, logDetail, values = {} }: { status: number; logDetail: string; values?: Record<string, string> }) {
    super(code, { status, values });
    this.logDetail = logDetail;
    this.name = 'CasRefusal';
  }
}
