import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** An external sign-in's round trip or login ticket is deleted this long after its expiry. */
const expiredSsoRowKeptMs = 3600_000;

/**
 * What external sign-ins leave behind, deleted with ended sessions (SessionService.pruneEnded runs it): the links of
 * sessions (sso_sessions) whose session is gone, revoked or expired (an ended session is never live again); round
 * trips and login tickets an hour past their expiry; remembered logout tokens past the time they could still be
 * accepted (their token is refused for its age by then). Kept apart from the protocol code so that the session
 * wiring loads nothing of openid-client or the CAS parser.
 */
export async function pruneEndedSsoRows(db: Kysely<DB>, now: number): Promise<void> {
    await db
      .deleteFrom('sso_sessions')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('sessions')
              .select('sessions.token_hash')
              .whereRef('sessions.token_hash', '=', 'sso_sessions.token_hash')
              .where('sessions.revoked_at', 'is', null)
              .where('sessions.idle_expires_at', '>', now)
              .where('sessions.absolute_expires_at', '>', now),
          ),
        ),
      )
      .execute();
    await db.deleteFrom('sso_round_trips').where('expires_at', '<', now - expiredSsoRowKeptMs).execute();
    await db.deleteFrom('sso_login_tickets').where('expires_at', '<', now - expiredSsoRowKeptMs).execute();
    await db.deleteFrom('sso_logout_tokens').where('expires_at', '<', now).execute();
}
