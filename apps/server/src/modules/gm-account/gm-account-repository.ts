import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CustomerKeyDerivation } from '@campus/card-crypto';
import type { DB, GateInstallationTable } from '../../db/schema.ts';

export type GateInstallationRow = Selectable<GateInstallationTable>;

const rowId = 'this';

/** The gate set-up's tables: the installation row, master-card tokens (trusted card issuers: TrustedIssuerRepository). */
export class GmAccountRepository {
  constructor(private readonly db: Kysely<DB>) {}

  installation(): Promise<GateInstallationRow | undefined> {
    return this.db.selectFrom('gate_installation').selectAll().where('id', '=', rowId).executeTakeFirst();
  }

  /** Inserts the initialised installation unless one exists, then answers the stored one. */
  async insertInstallationThenRead(row: Omit<Insertable<GateInstallationTable>, 'id'>): Promise<GateInstallationRow> {
    await this.db
      .insertInto('gate_installation')
      .values({ ...row, id: rowId })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return this.db.selectFrom('gate_installation').selectAll().where('id', '=', rowId).executeTakeFirstOrThrow();
  }

  /** Stores the system key sealed under the current KEK, for the installation of key id `kid`. */
  async resealSystemKey(kid: string, sealed: string): Promise<boolean> {
    const result = await this.db.updateTable('gate_installation').set({ sealed_system_key: sealed }).where('id', '=', rowId).where('kid', '=', kid).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores the system key sealed under another K_cust, for the installation of key id `kid`. */
  async resealForCustomer(kid: string, customerSealedKey: string, derivation: CustomerKeyDerivation): Promise<void> {
    await this.db.updateTable('gate_installation').set({ customer_sealed_key: customerSealedKey, customer_key_derivation: derivation }).where('id', '=', rowId).where('kid', '=', kid).execute();
  }

  async insertMasterToken(tokenHash: string, devicePublicKey: string, createdAt: number, expiresAt: number): Promise<void> {
    await this.db.deleteFrom('master_card_tokens').where('expires_at', '<=', createdAt).execute();
    await this.db.insertInto('master_card_tokens').values({ token_hash: tokenHash, device_public_key: devicePublicKey, created_at: createdAt, expires_at: expiresAt }).execute();
  }

  /** The live master-card token of this hash, with the issuer it was made for; undefined when there is none. */
  liveMasterToken(tokenHash: string, now: number): Promise<{ device_public_key: string | null } | undefined> {
    return this.db.selectFrom('master_card_tokens').select('device_public_key').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  }
}
