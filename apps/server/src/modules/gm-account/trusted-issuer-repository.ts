import type { Kysely, Selectable } from 'kysely';
import type { DB, TrustedCardIssuersTable } from '../../db/schema.ts';

export type TrustedIssuerRecord = Selectable<TrustedCardIssuersTable>;

/** What a trust (or its renewal) writes about the issuer. */
export interface IssuerTrust {
  publicKey: string;
  deviceId: string;
  hostName: string;
  trustedBy: string;
  clientIp: string;
  at: number;
  expiresAt: number;
}

/** The registry of trusted card issuers and the challenges their key fetches answer (migration 0020). */
export class TrustedIssuerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Drops the challenges older than `before`, and answers how many were made since for this device and this address. */
  async recentChallenges(publicKey: string, clientIp: string, since: number): Promise<{ device: number; address: number }> {
    await this.db.deleteFrom('issuer_key_challenges').where('created_at', '<', since).execute();
    const count = async (column: 'device_public_key' | 'client_ip', value: string) =>
      Number((await this.db.selectFrom('issuer_key_challenges').select((eb) => eb.fn.countAll().as('n')).where(column, '=', value).where('created_at', '>=', since).executeTakeFirstOrThrow()).n);
    return { device: await count('device_public_key', publicKey), address: await count('client_ip', clientIp) };
  }

  async insertChallenge(challengeHash: string, publicKey: string, clientIp: string, at: number, expiresAt: number): Promise<void> {
    await this.db.insertInto('issuer_key_challenges').values({ challenge_hash: challengeHash, device_public_key: publicKey, client_ip: clientIp, created_at: at, expires_at: expiresAt }).execute();
  }

  /**
   * Uses up the live challenge of this hash made for this issuer: true once, false when there is none (never made,
   * made for another issuer, used or expired). It is kept (counted for the rate limit) with its expiry set to 0.
   */
  async takeChallenge(challengeHash: string, publicKey: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('issuer_key_challenges')
      .set({ expires_at: 0 })
      .where('challenge_hash', '=', challengeHash)
      .where('device_public_key', '=', publicKey)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  find(publicKey: string): Promise<TrustedIssuerRecord | undefined> {
    return this.db.selectFrom('trusted_card_issuers').selectAll().where('public_key', '=', publicKey).executeTakeFirst();
  }

  findByDeviceId(deviceId: string): Promise<TrustedIssuerRecord | undefined> {
    return this.db.selectFrom('trusted_card_issuers').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  }

  /** Trusts an issuer or renews its trust; a revoked one stays revoked (the caller refuses it first). */
  async trust(trust: IssuerTrust): Promise<void> {
    const renewal = {
      device_id: trust.deviceId,
      host_name: trust.hostName,
      trusted_by: trust.trustedBy,
      client_ip: trust.clientIp,
      renewed_at: trust.at,
      expires_at: trust.expiresAt,
      last_used_at: trust.at,
      last_fetch_ip: trust.clientIp,
    };
    await this.db
      .insertInto('trusted_card_issuers')
      .values({ public_key: trust.publicKey, trusted_at: trust.at, ...renewal })
      .onConflict((oc) => oc.column('public_key').doUpdateSet(renewal).where('trusted_card_issuers.revoked_at', 'is', null))
      .execute();
  }

  /** Records a key fetch of a trusted issuer (the name it reports now, the address it came from). */
  async recordFetch(publicKey: string, hostName: string, clientIp: string, at: number): Promise<void> {
    await this.db.updateTable('trusted_card_issuers').set({ last_used_at: at, last_fetch_ip: clientIp, host_name: hostName }).where('public_key', '=', publicKey).execute();
  }

  list(): Promise<TrustedIssuerRecord[]> {
    return this.db.selectFrom('trusted_card_issuers').selectAll().orderBy('renewed_at', 'desc').orderBy('device_id').execute();
  }

  /** Revokes the issuer of this device id unless revoked already: whether this call revoked it. */
  async revoke(deviceId: string, by: string, at: number): Promise<boolean> {
    const result = await this.db.updateTable('trusted_card_issuers').set({ revoked_at: at, revoked_by: by }).where('device_id', '=', deviceId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
