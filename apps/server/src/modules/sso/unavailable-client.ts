import { codes } from '@campus/contracts';
import type { IdentityProviderKind, IdentityProviderTestResult } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import type { ProtocolClient } from './protocol.ts';

/**
 * The protocol client of a kind this build does not speak yet: every call is ssoProviderUnreachable (502), so a
 * provider of that kind can be kept but no one signs in through it.
 */
export class UnavailableProtocolClient implements ProtocolClient {
  constructor(readonly kind: IdentityProviderKind) {}

  private refuse(): never {
    throw new AppError(codes.ssoProviderUnreachable, 502);
  }

  async authorizationUrl(): Promise<string> {
    return this.refuse();
  }

  async finish(): Promise<never> {
    return this.refuse();
  }

  async logoutUrl(): Promise<string | null> {
    return this.refuse();
  }

  async readLogout(): Promise<never> {
    return this.refuse();
  }

  async test(): Promise<IdentityProviderTestResult> {
    return this.refuse();
  }
}
