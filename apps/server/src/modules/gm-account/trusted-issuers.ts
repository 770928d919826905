import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { issuerDeviceId, verifyIssuerChallenge } from '@campus/card-crypto';
import { codes } from '@campus/contracts';
import type { BusinessCode, SignedKeyChallenge, SysKeyChallenge, TrustedIssuerRow } from '@campus/contracts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { countIssuerKeyFetch, countIssuerRevocation } from '../../lib/metrics.ts';
import type { IssuerKeyFetchResult } from '../../lib/metrics.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import { TrustedIssuerRepository } from './trusted-issuer-repository.ts';
import type { TrustedIssuerRecord } from './trusted-issuer-repository.ts';

/** How long a key challenge may be answered: the issuer signs it at once. */
export const issuerChallengeTtlMs = 60_000;
/**
 * Challenges (so key fetches) a minute, counted in the database for every server node: one card issuer needs a few
 * (a restart, a second browser tab); an address may front several issuers (a proxy, a terminal server).
 */
export const issuerChallengesPerMinute = { device: 10, address: 30 };

export interface TrustedIssuersDeps {
  db: Kysely<DB>;
  logs: OperationLogService;
  now: () => number;
  /** How long a trust lasts (ISSUER_TRUST_HOURS). */
  trustTtlMs: number;
}

/** Who revokes: the account a card-management call acts as. */
export interface IssuerRevoker {
  account: string;
}

function stateOf(row: TrustedIssuerRecord, now: number): TrustedIssuerRow['state'] {
  if (row.revoked_at !== null) return 'revoked';
  return Number(row.expires_at) > now ? 'trusted' : 'expired';
}

/**
 * The registry of trusted card issuers (docs/cards.md "Trusted issuers", issue 46 item 1). A card issuer gets the
 * system key only while its trust lasts, only if no system administrator revoked it, and only by signing a one-time
 * challenge with its private key: a copy of its public key is not enough, and a copy of its whole data folder only
 * until the trust ends. Every fetch, trust, refusal and revocation is logged installation-wide and counted.
 */
export class TrustedIssuers {
  private readonly repo: TrustedIssuerRepository;

  constructor(private readonly deps: TrustedIssuersDeps) {
    this.repo = new TrustedIssuerRepository(deps.db);
  }

  /** A one-time challenge for the issuer of `publicKey` (lower-case, on the curve), limited per device and per address. */
  async challenge(publicKey: string, clientIp: string): Promise<SysKeyChallenge> {
    const now = this.deps.now();
    const recent = await this.repo.recentChallenges(publicKey, clientIp, now - 60_000);
    if (recent.device >= issuerChallengesPerMinute.device || recent.address >= issuerChallengesPerMinute.address) {
      await this.refuse('rate_limited', clientIp, `device ${issuerDeviceId(publicKey)}: too many key requests`, codes.issuerKeyFetchTooOften);
    }
    const challenge = randomBytes(32).toString('base64url');
    await this.repo.insertChallenge(sha256Hex(challenge), publicKey, clientIp, now, now + issuerChallengeTtlMs);
    return { challenge, expiresIn: issuerChallengeTtlMs / 1000 };
  }

  /**
   * The checks before the system key is sealed to `publicKey`: its signed challenge, then (with `trustedBy`, a
   * master-card swipe or a system key card) the trust made or renewed, or (without) a trust in effect. A refusal
   * changes nothing but the log and the counters.
   */
  async admit(publicKey: string, signed: SignedKeyChallenge, trustedBy: string | null, clientIp: string): Promise<void> {
    const now = this.deps.now();
    const deviceId = issuerDeviceId(publicKey);
    const who = `device ${deviceId} (${signed.hostName})`;
    const taken = await this.repo.takeChallenge(sha256Hex(signed.challenge), publicKey, now);
    if (!taken || !verifyIssuerChallenge(publicKey, signed.challenge, signed.hostName, signed.signature)) {
      await this.refuse('challenge', clientIp, `${who}: no valid signed challenge`, codes.issuerChallengeInvalid);
    }
    const row = await this.repo.find(publicKey);
    if (row?.revoked_at != null) await this.refuse('revoked', clientIp, `${who}: revoked`, codes.issuerTrustRevoked);
    if (trustedBy !== null) {
      await this.repo.trust({ publicKey, deviceId, hostName: signed.hostName, trustedBy, clientIp, at: now, expiresAt: now + this.deps.trustTtlMs });
      await this.log('card-reader-trust', 'success', clientIp, trustedBy);
      await this.settle(row ? 'renewed' : 'trusted', clientIp, `${who}: ${row ? 'renewed' : 'trusted'} by ${trustedBy}`);
      return;
    }
    if (!row) await this.refuse('untrusted', clientIp, `${who}: not trusted`, codes.readerNotTrusted);
    if (Number(row!.expires_at) <= now) await this.refuse('expired', clientIp, `${who}: trust expired`, codes.issuerTrustExpired);
    await this.repo.recordFetch(publicKey, signed.hostName, clientIp, now);
    await this.settle('fetched', clientIp, `${who}: key fetched`);
  }

  async list(): Promise<TrustedIssuerRow[]> {
    const now = this.deps.now();
    return (await this.repo.list()).map((row) => ({
      deviceId: row.device_id,
      hostName: row.host_name,
      trustedBy: row.trusted_by,
      clientIp: row.client_ip,
      firstTrustedAt: Number(row.trusted_at),
      trustedAt: Number(row.renewed_at),
      expiresAt: Number(row.expires_at),
      lastFetchAt: Number(row.last_used_at),
      lastFetchIp: row.last_fetch_ip,
      state: stateOf(row, now),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
      revokedBy: row.revoked_by,
    }));
  }

  /** Revokes an issuer for good: its key is never trusted again (a new device key is, with the system key card). */
  async revoke(deviceId: string, by: IssuerRevoker, clientIp: string): Promise<void> {
    const row = await this.repo.findByDeviceId(deviceId);
    if (!row) throw new AppError(codes.trustedIssuerUnknown, { values: { deviceId } });
    if (!(await this.repo.revoke(deviceId, by.account, this.deps.now()))) return;
    countIssuerRevocation();
    await this.deps.logs.record({ tenantCode: installationWide, account: by.account, action: 'card-issuer-revoke', result: 'success', clientIp, detail: `device ${deviceId} (${row.host_name})` });
  }

  private async settle(result: IssuerKeyFetchResult, clientIp: string, detail: string): Promise<void> {
    countIssuerKeyFetch(result);
    await this.log('card-issuer-key', 'success', clientIp, detail);
  }

  private async refuse(result: IssuerKeyFetchResult, clientIp: string, detail: string, code: BusinessCode): Promise<never> {
    countIssuerKeyFetch(result);
    await this.log('card-issuer-key', 'refused', clientIp, detail);
    throw new AppError(code);
  }

  private log(action: 'card-reader-trust' | 'card-issuer-key', result: 'success' | 'refused', clientIp: string, detail: string) {
    return this.deps.logs.record({ tenantCode: installationWide, account: '', action, result, clientIp, detail });
  }
}
