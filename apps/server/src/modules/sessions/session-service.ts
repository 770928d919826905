import { randomBytes } from 'node:crypto';
import type { LoginType } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { SessionInfo } from '../../http/types.ts';
import { sha256Hex } from '../../lib/hash.ts';
import type { AuthRepository } from './auth-repository.ts';

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
/** Refresh last_seen_at at most this often (fewer writes; idle expiry is in minutes). */
const touchEveryMs = 15_000;

export interface SessionServiceDeps {
  repo: AuthRepository;
  idleMs: number;
  maxMs: number;
  now: () => number;
  /** Deletes, on the executor given, rows of other areas that ended sessions leave behind (the external sign-in's). */
  pruneWith?: (db: Kysely<DB>, now: number) => Promise<void>;
}

/** Opaque 256-bit tokens; only their SHA-256 is stored. */
export class SessionService {
  private readonly repo: AuthRepository;
  private readonly idleMs: number;
  private readonly maxMs: number;
  private readonly now: () => number;
  private readonly pruneWith: SessionServiceDeps['pruneWith'];

  constructor(deps: SessionServiceDeps) {
    this.repo = deps.repo;
    this.idleMs = deps.idleMs;
    this.maxMs = deps.maxMs;
    this.now = deps.now;
    this.pruneWith = deps.pruneWith;
  }

  /** The same sessions over `db`, a transaction: a change that ends sessions ends them with its own write. */
  over(db: Kysely<DB>): SessionService {
    return new SessionService({ repo: this.repo.over(db), idleMs: this.idleMs, maxMs: this.maxMs, now: this.now, pruneWith: this.pruneWith });
  }

  /** Sessions in effect now (the metrics gauge). */
  countActive(): Promise<number> {
    return this.repo.countActiveSessions(this.now());
  }

  /** A new session; `cardId` names the administrator login card of a card sign-in. */
  async create(user: { id: string; tenantCode: string; account: string }, loginType: LoginType, passwordChangeRequired = false, cardId: string | null = null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const absolute = now + this.maxMs;
    await this.repo.insertSession({
      token_hash: sha256Hex(token),
      user_id: user.id,
      tenant_code: user.tenantCode,
      account: user.account,
      login_type: loginType,
      created_at: now,
      last_seen_at: now,
      idle_expires_at: Math.min(now + this.idleMs, absolute),
      absolute_expires_at: absolute,
      revoked_at: null,
      password_change_required: passwordChangeRequired ? 1 : 0,
      card_id: cardId,
    });
    if (Math.random() < 0.05) await this.pruneEnded();
    return token;
  }

  /** Deletes what ended sign-ins leave behind (the one place that runs it); run now and then by create. */
  async pruneEnded(): Promise<void> {
    const now = this.now();
    await this.repo.pruneEndedSessions(now);
    await this.pruneWith?.(this.repo.db, now);
  }

  async resolve(token: string): Promise<SessionInfo | 'invalid' | 'expired'> {
    if (!tokenPattern.test(token)) return 'invalid';
    const tokenHash = sha256Hex(token);
    const read = await this.repo.sessionRead(tokenHash);
    if (!read || read.row.revoked_at !== null) return 'invalid';
    const { row } = read;
    const now = this.now();
    if (now >= row.idle_expires_at || now >= row.absolute_expires_at) return 'expired';
    if (now - row.last_seen_at >= touchEveryMs) {
      await this.repo.touchSession(tokenHash, now, Math.min(now + this.idleMs, row.absolute_expires_at));
    }
    return {
      tokenHash,
      userId: row.user_id,
      tenantCode: row.tenant_code,
      account: row.account,
      loginType: row.login_type as LoginType,
      createdAt: row.created_at,
      passwordChangeRequired: Number(row.password_change_required) === 1,
      cardId: row.card_id ?? null,
      stamps: read.stamps,
      installation: read.installation,
    };
  }

  /** How many sessions of the tenant are signed in now (the same test as resolve: not revoked, not expired). */
  liveCount(tenantCode: string): Promise<number> {
    return this.repo.countLiveSessions(tenantCode, this.now());
  }

  revoke(tokenHash: string): Promise<boolean> {
    return this.repo.revokeSession(tokenHash, this.now());
  }

  /** Ends every session signed in with an administrator login card; answers how many were still live. */
  revokeAllOfCard(cardId: string): Promise<number> {
    return this.repo.revokeSessionsOfCard(cardId, this.now());
  }

  /** Ends every session of a user (after a password change); answers how many were still live. */
  revokeAllOfUser(userId: string): Promise<number> {
    return this.repo.revokeSessionsOfUser(userId, this.now());
  }
}
