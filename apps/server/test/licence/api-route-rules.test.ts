import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import type { OperationLogRow, PasswordComplexity } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { licenceRule, licenceRuleForAdministrators, passwordChangeRule, routeKey } from '../../src/http/route-rules.ts';
import { call, counts, databases, sha256, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/** A concrete URL for a route pattern (`:id` → x, `*` → x). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'x').replace(/\*/g, 'x');
}

/** Every registered route that answers 401 without a token: the routes the rules are about. */
async function sessionRoutes(server: TestServer): Promise<{ method: 'GET' | 'POST'; url: string; key: string }[]> {
  const found: { method: 'GET' | 'POST'; url: string; key: string }[] = [];
  for (const route of server.app.routeList) {
    if (route.method !== 'GET' && route.method !== 'POST') throw new Error(`route ${route.method} ${route.url}: the walk knows GET and POST only`);
    const reply = await call(server, route.method, concrete(route.url));
    if (reply.status === 401) found.push({ method: route.method, url: route.url, key: routeKey(route.method, route.url) });
  }
  return found;
}

/** What a session gets from each route: the rule's refusal, or anything else. */
async function refusals(server: TestServer, token: string, routes: { method: 'GET' | 'POST'; url: string; key: string }[], code: number) {
  const refused = new Set<string>();
  // sign-out last: it ends the session the walk uses
  const logoutKey = routeKey('POST', apiPaths.logout);
  const ordered = [...routes.filter((r) => r.key !== logoutKey), ...routes.filter((r) => r.key === logoutKey)];
  for (const route of ordered) {
    const reply = await call(server, route.method, concrete(route.url), undefined, { token, language: 'en-US' });
    if (reply.body.code === code) {
      expect(reply.status, route.key).toBe(403);
      refused.add(route.key);
    }
  }
  return refused;
}

describe.each(databases)('the server keeps the rules the shell shows (%s)', (kind) => {
  describe('with a valid licence', () => {
    let server: TestServer;
    let routes: Awaited<ReturnType<typeof sessionRoutes>>;

    beforeAll(async () => {
      server = await startServer(kind);
      routes = await sessionRoutes(server);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('finds the signed-in routes, and every route a rule lists is registered', () => {
      expect(routes.length).toBeGreaterThan(20);
      const registered = new Set(server.app.routeList.map((r) => routeKey(r.method, r.url)));
      for (const list of [passwordChangeRule, licenceRule, licenceRuleForAdministrators]) {
        for (const key of list) expect(registered.has(key), key).toBe(true);
      }
    });

    it('a session that must change its password gets only the frame and the change: every other call is refused with 191', async () => {
      const token = await signIn(server, 'expired', 'Expired#2026');
      const refused = await refusals(server, token, routes, codes.passwordChangeRequired);
      for (const route of routes) expect(refused.has(route.key), route.key).toBe(!passwordChangeRule.has(route.key));
      const again = await signIn(server, 'expired', 'Expired#2026');
      const reply = await call(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 10 } }, { token: again, language: 'en-US' });
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: codes.passwordChangeRequired, data: null });
      expect(reply.body.msg).toMatch(/password must be changed/);
    });

    it('after the change the new session is answered everywhere', async () => {
      const token = await signIn(server, 'expired', 'Expired#2026');
      const complexity = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity, undefined, { token });
      const next = 'Changed#2026';
      const change = await call(server, 'POST', apiPaths.changePassword, {
        oprtPwd: sha256('Expired#2026'),
        oprtNewPwd: sha256(next),
        sealedNewPwd: sm2.doEncrypt(next, complexity.body.data.sealKey, 1),
      }, { token });
      expect(change.body.code).toBe(0);
      const fresh = await signIn(server, 'expired', next);
      expect(await refusals(server, fresh, routes, codes.passwordChangeRequired)).toEqual(new Set());
    });

    it('a user whose password is fine is refused nowhere', async () => {
      const token = await signIn(server, 'staff', 'Staff#2026');
      expect(await refusals(server, token, routes, codes.passwordChangeRequired)).toEqual(new Set());
      expect(await refusals(server, token, routes, codes.licenceRequired)).toEqual(new Set());
    });

    it('a user without any sub-system gets no session: the sign-in is refused and logged as refused', async () => {
      const before = await counts(server);
      const reply = await call(server, 'POST', apiPaths.webLogin, webLoginBody('nosub', 'Nosub#2026'), { language: 'en-US' });
      expect(reply.body).toMatchObject({ code: codes.noSubsystem });
      expect(reply.body.msg).toBe('The current user has not enabled any subsystem, please contact the administrator');
      expect(JSON.stringify(reply.body.data ?? null)).not.toContain('token');
      const after = await counts(server);
      expect(after.sessions).toBe(before.sessions);
      const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
      const log = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 50 }, operator: 'nosub' }, { token: admin });
      expect(log.body.data[0]).toMatchObject({ account: 'nosub', action: 'login', result: 'refused', detail: 'no-subsystem' });
      expect(log.body.data.some((row) => row.result === 'success')).toBe(false);
    });
  });

  describe('without a valid licence', () => {
    let server: TestServer;
    let routes: Awaited<ReturnType<typeof sessionRoutes>>;

    beforeAll(async () => {
      server = await startServer(kind, { env: { DEMO_LICENCE: 'off' } });
      routes = await sessionRoutes(server);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('an employee gets only the frame and the prompt: every other call is refused with 192', async () => {
      const token = await signIn(server, 'staff', 'Staff#2026');
      const refused = await refusals(server, token, routes, codes.licenceRequired);
      for (const route of routes) expect(refused.has(route.key), route.key).toBe(!licenceRule.has(route.key));
    });

    it('a system administrator may also upload, activate, register a trial and read About System', async () => {
      const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
      const refused = await refusals(server, token, routes, codes.licenceRequired);
      for (const route of routes) expect(refused.has(route.key), route.key).toBe(!licenceRuleForAdministrators.has(route.key));
    });

    it('the licence comes first: a session that must change its password is refused with 192, as the shell shows the licence', async () => {
      const token = await signIn(server, 'expired', 'Expired#2026');
      const reply = await call(server, 'POST', apiPaths.changePassword, {}, { token });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe(codes.licenceRequired);
    });
  });
});
