import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm3Hex } from '@campus/card-crypto';
import { apiPaths, codeMessage, codes, licenceLimits } from '@campus/contracts';
import type { AdminLoginCardRow, LicenceDetail, LicencePermission, LicenceUploadResult, MenuData, PermissionEntry, SubAppEntry, UserInfo } from '@campus/contracts';
import { openDatabase } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { issueLicenceFile } from '../../src/modules/licence/licence-file.ts';
import type { DatabaseKind } from '../support/helpers.ts';
import { adminCardFixedNo, gateEnv, hex, install, sealed } from '../support/gate-helpers.ts';
import type { Installed } from '../support/gate-helpers.ts';
import { edKey, samplePayload } from '../support/licence-helpers.ts';
import { nginxBinary, startNginx } from '../support/nginx-helpers.ts';
import type { Nginx } from '../support/nginx-helpers.ts';
import { multipart, nodeCaptchaText, send, startNodes } from '../support/server-nodes.ts';
import type { NodeCluster, SendOptions, ServerNode } from '../support/server-nodes.ts';

// Issue 17, item 1: two server processes on one database, as two nodes of one installation behind a load balancer,
// and the same two behind Debian's nginx with the repository's template (deploy/nginx/campus-shell.conf). Whatever
// one node does, the other sees at its next call: sessions and their end, password changes, administrator cards
// lost or frozen, lock-outs, image codes (good for one check on any node), the licence; and the operation log has
// each event once. The nodes run a gate deployment (MJ_SYSTEM 21) so that one pair of processes covers the card
// rules as well; the sign-in, lock-out, image code and licence code is the same for every system type.
//
// PostgreSQL is what several nodes on several machines share; several processes on one machine may also share the
// SQLite file (WAL), which CI's Node 24 run and a machine without PostgreSQL test here.
const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ['postgres', 'sqlite'] : ['sqlite'];
const dayMs = 86_400_000;
const hasNginx = fs.existsSync(nginxBinary);
// CI installs nginx (npm test as root: scripts/system-deps.mjs); elsewhere a missing nginx skips, saying why
const nginxTitle = hasNginx || process.env.CI
  ? 'behind nginx (deploy/nginx/campus-shell.conf)'
  : `behind nginx: SKIPPED, ${nginxBinary} is not installed (as root: apt-get install nginx, or run npm test as root)`;

interface LogRow {
  action: string;
  result: string;
  account: string;
  client_ip: string;
  detail: string | null;
}

describe.each(kinds)('two server nodes on one database (%s)', (kind) => {
  let cluster: NodeCluster;
  let a: ServerNode;
  let b: ServerNode;
  let db: DatabaseHandle;
  const seen = new Set<string>();

  beforeAll(async () => {
    const started = Date.now();
    cluster = await startNodes(kind, 2, { ...gateEnv, DEMO_LICENCE: 'off', TRUST_PROXY: '1' });
    [a, b] = cluster.nodes as [ServerNode, ServerNode];
    db = openDatabase({ databaseUrl: cluster.env.DATABASE_URL || null, sqliteFile: path.join(cluster.dataDir, 'campus.db') });
    process.stdout.write(`two nodes (${kind}) answering after ${Date.now() - started} ms\n`);
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.close();
  });

  const post = <T = unknown>(node: { url: string }, urlPath: string, body: unknown, options: SendOptions = {}) => send<T>(node, 'POST', urlPath, { language: 'en-US', ...options, body });
  const get = <T = unknown>(node: { url: string }, urlPath: string, options: SendOptions = {}) => send<T>(node, 'GET', urlPath, { language: 'en-US', ...options });
  /** A gate deployment's web sign-in: the SM3 digest of the password. */
  const webLogin = (node: { url: string }, account: string, password: string, extra: Record<string, unknown> = {}, options: SendOptions = {}) =>
    post<{ loginInfo: { token: string }; captchaRequired?: boolean; lockingTime?: number }>(node, apiPaths.webLogin, { user: { account, password: sm3Hex(password), tenantCode: '1001' }, ...extra }, options);
  const signIn = async (node: { url: string }, account: string, password: string, options: SendOptions = {}) => {
    const reply = await webLogin(node, account, password, {}, options);
    expect(reply.body.code, reply.text).toBe(0);
    return reply.body.data.loginInfo.token;
  };
  const who = (node: { url: string }, token: string, options: SendOptions = {}) => get<UserInfo>(node, apiPaths.userDetail, { ...options, token });
  /** A new image code drawn on `node`; its answer is the fixed test answer. */
  let keys = 0;
  const imageCode = async (node: { url: string }, options: SendOptions = {}) => {
    keys += 1;
    const verifyKey = `nodes-${kind}-${keys}-${Date.now()}`;
    const reply = await get(node, `${apiPaths.captchaImage}?verifyKey=${verifyKey}`, options);
    expect(reply.body.code, reply.text).toBe(0);
    return { verifyKey, imageVerifyCode: nodeCaptchaText };
  };
  /** The operation log rows written since the last look, as `action result account address [detail]`, sorted. */
  const newLogRows = async () => {
    const rows = (await db.db.selectFrom('operation_logs').select(['id', 'action', 'result', 'account', 'client_ip', 'detail']).execute()) as (LogRow & { id: string })[];
    const fresh = rows.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    return fresh.map((r) => `${r.action} ${r.result} ${r.account} ${r.client_ip}${r.detail ? ` [${r.detail}]` : ''}`).sort();
  };

  it('both nodes started together on an empty database: one migrated and seeded it, the other found it done', async () => {
    expect(a.running && b.running).toBe(true);
    const count = async (table: 'tenants' | 'users' | 'installation' | 'menu_systems') => Number((await db.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count('installation')).toBe(1);
    expect(await count('tenants')).toBe(2);
    const users = await db.db.selectFrom('users').select(['tenant_code', 'account']).execute();
    expect(new Set(users.map((u) => `${u.tenant_code}/${u.account}`)).size).toBe(users.length);
    expect(users.map((u) => u.account)).toContain('sysadmin');
    for (const node of [a, b]) expect((await get(node, apiPaths.health)).status).toBe(200);
    expect(await newLogRows()).toEqual([]);
  });

  it('a licence uploaded and activated on A is the licence on B at its next call', async () => {
    const adminA = await signIn(a, 'sysadmin', 'Sysadmin#2026');
    const adminB = await signIn(b, 'sysadmin', 'Sysadmin#2026');
    const search = { page: { index: 1, size: 50 } };
    const refused = await post(b, apiPaths.operationLogSearch, search, { token: adminB });
    expect([refused.status, refused.body.code]).toEqual([403, codes.licenceRequired]);
    expect((await get<LicencePermission>(b, apiPaths.licencePermission, { token: adminB })).body.data.isNormal).toBe(false);

    const now = Date.now();
    const file = issueLicenceFile(samplePayload({ code: 'NODES-0001', beginTime: now - dayMs, endTime: now + 400 * dayMs }), edKey);
    const form = await multipart([{ name: 'nodes.lic', body: file }]);
    const uploaded = await post<LicenceUploadResult[]>(a, apiPaths.licenceUpload, form.body, { token: adminA, headers: { 'content-type': form.contentType } });
    expect(uploaded.body.data, uploaded.text).toMatchObject([{ ok: true, code: 'NODES-0001' }]);
    expect((await post(a, apiPaths.licenceActivate, { id: uploaded.body.data[0]!.id }, { token: adminA })).body.code).toBe(0);

    expect((await get<LicencePermission>(b, apiPaths.licencePermission, { token: adminB })).body.data).toMatchObject({ isNormal: true });
    expect((await post<LicenceDetail>(b, apiPaths.licenceCurrentDetail, {}, { token: adminB })).body.data).toMatchObject({ code: 'NODES-0001', activateTime: expect.any(Number) as unknown });
    expect((await post(b, apiPaths.operationLogSearch, search, { token: adminB })).body.code).toBe(0);
    expect(await newLogRows()).toEqual([
      'licence-activate success sysadmin 127.0.0.1 [NODES-0001]',
      'licence-upload success sysadmin 127.0.0.1 [accepted: NODES-0001; refused: 0]',
      'login success sysadmin 127.0.0.1',
      'login success sysadmin 127.0.0.1',
    ]);
  });

  it('a sub-system registered, granted and removed on A: B’s menus, permissions and sub-app registry follow at their next call', async () => {
    // B has answered with its kept catalogue and grants before each change: a stale copy would show
    const adminA = await signIn(a, 'sysadmin', 'Sysadmin#2026');
    const staffB = await signIn(b, 'staff', 'Staff#2026');
    const adminB = await signIn(b, 'sysadmin', 'Sysadmin#2026');
    const systemsOn = async (node: ServerNode, token: string) => (await get<MenuData>(node, apiPaths.menus, { token })).body.data.menuBaseList.map((s) => s.appNo);
    const permissionsOn = async (node: ServerNode, token: string) => (await get<PermissionEntry[]>(node, apiPaths.permissions, { token })).body.data;
    expect(await systemsOn(b, adminB)).not.toContain('ext');
    expect(await systemsOn(b, staffB)).not.toContain('ext');

    const manifest = {
      appNo: 'ext',
      label: { 'en-US': 'Partner Orders', 'zh-CN': '合作伙伴订单', 'zh-MO': '合作夥伴訂單' },
      basePath: 'ext',
      functionCodes: ['9001000'],
      pages: [{ id: 'ext-orders', path: '/ext/orders', name: 'orders', title: { 'en-US': 'Orders', 'zh-CN': '订单', 'zh-MO': '訂單' } }],
    };
    const registryOn = async (node: ServerNode, token: string) => (await get<SubAppEntry[]>(node, apiPaths.subAppRegistry, { token })).body.data.map((e) => e.appNo);
    expect(await registryOn(b, staffB)).not.toContain('ext');
    expect((await post(a, apiPaths.subAppRegister, manifest, { token: adminA })).body.code).toBe(0);
    expect(await systemsOn(b, adminB)).toContain('ext');
    // where the shell loads it from: known to B at once as well
    expect(await registryOn(b, staffB)).toContain('ext');
    expect(await systemsOn(b, staffB)).not.toContain('ext');

    expect((await post(a, apiPaths.subAppGrant, { appNo: 'ext', tenantCode: '1001', account: 'staff', functionCodes: ['9001000'] }, { token: adminA })).body.code).toBe(0);
    expect(await systemsOn(b, staffB)).toContain('ext');
    expect(await permissionsOn(b, staffB)).toContainEqual({ appCode: 'ext', ids: ['9001000'] });

    expect((await post(a, apiPaths.subAppRemove, { appNo: 'ext' }, { token: adminA })).body.code).toBe(0);
    expect(await systemsOn(b, staffB)).not.toContain('ext');
    expect((await permissionsOn(b, staffB)).map((p) => p.appCode)).not.toContain('ext');
    expect(await systemsOn(b, adminB)).not.toContain('ext');
    expect(await registryOn(b, staffB)).not.toContain('ext');
    expect((await post(b, apiPaths.logout, {}, { token: staffB })).body.code).toBe(0);
    expect(await newLogRows()).toEqual([
      'login success staff 127.0.0.1',
      'login success sysadmin 127.0.0.1',
      'login success sysadmin 127.0.0.1',
      'logout success staff 127.0.0.1',
      'sub-app-grant success sysadmin 127.0.0.1 [ext to 1001/staff]',
      'sub-app-register success sysadmin 127.0.0.1 [ext at /ext/ from /subapps/ext/]',
      'sub-app-remove success sysadmin 127.0.0.1 [ext]',
    ]);
  });

  it('a session made on A works on B; logged out on A, it is refused on B at the next call', async () => {
    const token = await signIn(a, 'staff', 'Staff#2026');
    const onB = await who(b, token);
    expect([onB.status, onB.body.data.code]).toEqual([200, 'staff']);
    expect((await post(a, apiPaths.logout, {}, { token })).body.code).toBe(0);
    const after = await who(b, token);
    expect([after.status, after.body.code, after.body.msg]).toEqual([401, codes.tokenInvalid, codeMessage(codes.tokenInvalid, 'en-US')]);
    expect((await who(a, token)).status).toBe(401);
    expect(await newLogRows()).toEqual(['login success staff 127.0.0.1', 'logout success staff 127.0.0.1']);
  });

  it('a password changed on A ends the sessions on B at once; B refuses the old password and takes the new one', async () => {
    const onA = await signIn(a, 'staff', 'Staff#2026');
    const onB = await signIn(b, 'staff', 'Staff#2026');
    // sealed to the key B hands out, opened by A: one key pair for the installation
    const body = { oprtPwd: sm3Hex('Staff#2026'), oprtNewPwd: sm3Hex('Changed#2026'), sealedNewPwd: await sealed(b, 'Changed#2026') };
    const changed = await post(a, apiPaths.changePassword, body, { token: onA });
    expect(changed.body.code, changed.text).toBe(0);
    expect((await who(b, onB)).status).toBe(401);
    expect((await webLogin(b, 'staff', 'Staff#2026')).body.code).toBe(codes.accountOrPasswordWrong);
    const fresh = await signIn(b, 'staff', 'Changed#2026');
    expect((await who(a, fresh)).body.data.code).toBe('staff');
    expect(await newLogRows()).toEqual([
      'change-password success staff 127.0.0.1 [sessions ended: 2]',
      'login failure staff 127.0.0.1',
      'login success staff 127.0.0.1',
      'login success staff 127.0.0.1',
      'login success staff 127.0.0.1',
    ]);
  });

  it('image codes: drawn on one node, checked on the other, good for one check only', async () => {
    const wrong = (node: ServerNode, verifyModel?: object) => webLogin(node, 'multi', 'Wrong#2026', verifyModel ? { verifyModel } : {});
    expect((await wrong(a)).body.code).toBe(codes.accountOrPasswordWrong);
    expect((await wrong(b)).body.code).toBe(codes.accountOrPasswordWrong);
    const third = await wrong(a);
    expect(third.body).toMatchObject({ code: codes.accountOrPasswordWrong, data: { captchaRequired: true } });
    // from the fourth try on, an image code: B asks for it although not all the failures were its own
    expect((await wrong(b)).body.code).toBe(codes.captchaRequired);
    const drawnOnA = await imageCode(a);
    expect((await wrong(b, drawnOnA)).body.code).toBe(codes.accountOrPasswordWrong); // the code passed; the password did not
    expect((await wrong(a, drawnOnA)).body.code).toBe(codes.captchaExpired); // used once, on B: gone on A too
    expect((await wrong(b, drawnOnA)).body.code).toBe(codes.captchaExpired);
    const answeredWrong = await imageCode(b);
    expect((await wrong(a, { ...answeredWrong, imageVerifyCode: 'XXXXX' })).body.code).toBe(codes.captchaWrong);
    expect((await wrong(b, answeredWrong)).body.code).toBe(codes.captchaExpired); // a wrong answer used it up as well
    expect(await newLogRows()).toEqual(Array(4).fill('login failure multi 127.0.0.1'));
  });

  it('a lock-out reached on A holds on B at the next call', async () => {
    // multi has four failures from this address (the test before): the fifth, on A, locks it for this address
    const locked = await webLogin(a, 'multi', 'Wrong#2026', { verifyModel: await imageCode(b) });
    expect(locked.body).toMatchObject({ code: codes.accountLocked, data: { lockingTime: expect.any(Number) as unknown } });
    const onB = await webLogin(b, 'multi', 'Multi#2026', { verifyModel: await imageCode(a) });
    expect(onB.body).toMatchObject({ code: codes.accountLocked, data: { lockingTime: locked.body.data.lockingTime } });
    const rows = await newLogRows();
    expect(rows.map((r) => r.replace(/ \[until .*\]$/, ''))).toEqual(['lock locked multi 127.0.0.1', 'login failure multi 127.0.0.1', 'login locked multi 127.0.0.1']);
  });

  it('wrong passwords sent at once to both nodes are each counted: none is lost to the other node’s write', async () => {
    const address = '127.0.0.9'; // a client of its own, so the counters are this test's alone
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => webLogin(i % 2 === 0 ? a : b, 'nosub', 'Wrong#2026', {}, { localAddress: address })));
    // each answered: wrong, locked, or (once three were counted) asked for an image code, which counts nothing
    for (const reply of replies) expect(reply.body.code, reply.text).toBeOneOf([codes.accountOrPasswordWrong, codes.accountLocked, codes.captchaRequired]);
    const rows = await newLogRows();
    const failures = rows.filter((row) => row === `login failure nosub ${address}`).length;
    expect(failures).toBeGreaterThanOrEqual(3);
    const counter = (scope: string, key: string) => db.db.selectFrom('login_failures').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirstOrThrow();
    expect((await counter('address', address)).failures).toBe(failures);
    expect((await counter('account', '1001|nosub')).failures).toBe(failures);
    const pair = await counter('pair', `1001|nosub|${address}`);
    expect(pair.failures + 5 * pair.lock_count).toBe(failures); // a lock starts the pair's count again
    expect(rows.filter((row) => row.startsWith(`lock locked nosub ${address}`))).toHaveLength(pair.lock_count);
    expect(rows.every((row) => row.includes(` nosub ${address}`))).toBe(true);
  });

  describe('administrator login cards (gate deployment, one KEK file for both nodes)', () => {
    let installed: Installed;
    let cardId: string;
    const cardLogin = (node: ServerNode) => post<{ token: string }>(node, apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: hex(installed.adminCardImage) });
    const manage = (node: ServerNode, urlPath: string) => post(node, urlPath, { ids: [cardId] }, { token: installed.masterToken });

    beforeAll(async () => {
      installed = await install(a);
      const table = await post<AdminLoginCardRow[]>(b, apiPaths.adminCardSearch, { page: { index: 1, size: 15 } }, { token: installed.masterToken });
      cardId = table.body.data.find((row) => row.fixedNo === adminCardFixedNo)!.id;
      await newLogRows();
    });

    it('a card issued through A signs in on B (B opens the system key A sealed); a card lost on A is refused on B at once', async () => {
      const signedIn = await cardLogin(b);
      expect(signedIn.body.code, signedIn.text).toBe(0);
      const session = signedIn.body.data.token;
      expect((await who(a, session)).body.data.code).toBe('sysadmin');
      expect((await manage(a, apiPaths.adminCardLoss)).body.code).toBe(0);
      expect((await who(b, session)).status).toBe(401);
      expect((await cardLogin(b)).body).toMatchObject({ code: codes.cardLost, msg: codeMessage(codes.cardLost, 'en-US') });
      expect((await manage(b, apiPaths.adminCardUnLoss)).body.code).toBe(0);
      expect((await cardLogin(a)).body.code).toBe(0);
      expect(await newLogRows()).toEqual([
        `card-login refused sysadmin 127.0.0.1 [card ${adminCardFixedNo} in state 40]`,
        'card-login success sysadmin 127.0.0.1',
        'card-login success sysadmin 127.0.0.1',
        `card-state success master-card 127.0.0.1 [loss administrator card ${adminCardFixedNo} of sysadmin]`,
        `card-state success master-card 127.0.0.1 [unLoss administrator card ${adminCardFixedNo} of sysadmin]`,
      ]);
    });

    it('a card frozen on A is refused on B at once, and its sessions on B end', async () => {
      const session = (await cardLogin(b)).body.data.token;
      expect((await manage(a, apiPaths.adminCardFreeze)).body.code).toBe(0);
      expect((await who(b, session)).status).toBe(401);
      expect((await cardLogin(b)).body.code).toBe(codes.cardFrozen);
      expect((await manage(b, apiPaths.adminCardUnFreeze)).body.code).toBe(0);
      expect((await cardLogin(b)).body.code).toBe(0);
      expect(await newLogRows()).toEqual([
        `card-login refused sysadmin 127.0.0.1 [card ${adminCardFixedNo} in state 80]`,
        'card-login success sysadmin 127.0.0.1',
        'card-login success sysadmin 127.0.0.1',
        `card-state success master-card 127.0.0.1 [freeze administrator card ${adminCardFixedNo} of sysadmin]`,
        `card-state success master-card 127.0.0.1 [unFreeze administrator card ${adminCardFixedNo} of sysadmin]`,
      ]);
    });
    it('changes to one card sent at once to both nodes: each answered, done or refused for the state it found; each done one logged once', async () => {
      const actions = Array.from({ length: 16 }, (_, i) => (i % 4 < 2 ? apiPaths.adminCardFreeze : apiPaths.adminCardUnFreeze));
      const replies = await Promise.all(actions.map((action, i) => manage(i % 2 === 0 ? a : b, action)));
      for (const reply of replies) expect([reply.status, reply.body.code], reply.text).toEqual([200, expect.toBeOneOf([0, codes.cardActionNotAllowed])]);
      const done = replies.filter((reply) => reply.body.code === 0).length;
      expect(done).toBeGreaterThan(0);
      const rows = await newLogRows();
      expect(rows).toHaveLength(done);
      expect(rows.every((row) => /^card-state success master-card 127\.0\.0\.1 \[(freeze|unFreeze) administrator card /.test(row))).toBe(true);
      // the card is in use again for what follows
      if ((await manage(a, apiPaths.adminCardUnFreeze)).body.code === 0) await newLogRows();
      expect((await cardLogin(a)).body.code).toBe(0);
      await newLogRows();
    });
  });

  describe.skipIf(!hasNginx && !process.env.CI)(nginxTitle, () => {
    let nginx: Nginx;
    /** Through nginx from another client address of the loopback range. */
    const from = (address: string, extra: SendOptions = {}): SendOptions => ({ localAddress: address, ...extra });

    beforeAll(async () => {
      nginx = await startNginx([a, b].map((node) => `127.0.0.1:${node.port}`));
    });
    afterAll(async () => {
      await nginx?.stop();
    });

    it('balances the calls over both nodes, and every one is answered', async () => {
      const token = await signIn(nginx, 'sysadmin', 'Sysadmin#2026', from('127.0.0.7'));
      const replies = await Promise.all(Array.from({ length: 8 }, () => who(nginx, token, from('127.0.0.7'))));
      expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
      // nginx writes each line once the answer is sent: the last ones may come a moment after the client has it
      let upstreams: string[] = [];
      for (const deadline = Date.now() + 5_000; upstreams.length < 9 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
        upstreams = [...nginx.accessLog().matchAll(/upstream=(\S+)/g)].map((m) => m[1]!);
      }
      expect(upstreams).toHaveLength(9);
      for (const node of [a, b]) expect(upstreams.filter((u) => u === `127.0.0.1:${node.port}`).length).toBeGreaterThanOrEqual(3);
      expect(await newLogRows()).toEqual(['login success sysadmin 127.0.0.7']);
    });

    it('the client address in the log and the lock-out is the one nginx forwards, whatever X-Forwarded-For the client sends', async () => {
      const spoofed = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
      for (let i = 1; i <= 4; i += 1) {
        const verifyModel = await imageCode(nginx, from('127.0.0.5'));
        const reply = await webLogin(nginx, 'expired', 'Wrong#2026', { verifyModel }, from('127.0.0.5', { headers: spoofed(i) }));
        expect(reply.body.code, reply.text).toBe(codes.accountOrPasswordWrong);
      }
      // a new spoofed address each time did not make a new client: the fifth failure locks expired for 127.0.0.5
      const fifth = await webLogin(nginx, 'expired', 'Wrong#2026', { verifyModel: await imageCode(nginx) }, from('127.0.0.5', { headers: spoofed(5) }));
      expect(fifth.body.code).toBe(codes.accountLocked);
      const right = await webLogin(nginx, 'expired', 'Expired#2026', { verifyModel: await imageCode(nginx) }, from('127.0.0.5', { headers: spoofed(6) }));
      expect(right.body.code).toBe(codes.accountLocked);
      // nginx itself connects to the nodes from 127.0.0.1: another client (127.0.0.6) is not locked
      const other = await webLogin(nginx, 'expired', 'Expired#2026', { verifyModel: await imageCode(nginx) }, from('127.0.0.6', { headers: { 'x-forwarded-for': '127.0.0.5' } }));
      expect(other.body.code, other.text).toBe(0);
      // the nodes' request logs name the same client
      const requestLogs = a.output() + b.output();
      expect(requestLogs).toContain('"remoteAddress":"127.0.0.5"');
      expect(requestLogs).not.toContain('203.0.113.');
      const rows = (await newLogRows()).map((r) => r.replace(/ \[until .*\]$/, ''));
      expect(rows).toEqual([
        'lock locked expired 127.0.0.5',
        ...Array(5).fill('login failure expired 127.0.0.5'),
        'login locked expired 127.0.0.5',
        'login success expired 127.0.0.6',
      ]);
    });

    it('a licence upload larger than nginx’s default 1 MiB goes through; over the limits, an envelope in the caller’s language', async () => {
      const admin = await signIn(nginx, 'sysadmin', 'Sysadmin#2026');
      const now = Date.now();
      const licence = issueLicenceFile(samplePayload({ code: 'NODES-0002', beginTime: now - dayMs, endTime: now + 500 * dayMs }), edKey);
      const padding = (i: number) => ({ name: `large-${i}.lic`, body: Buffer.alloc(licenceLimits.maxFileBytes + 1024, 32) });
      const form = await multipart([{ name: 'nodes-2.lic', body: licence }, ...[1, 2, 3, 4].map(padding)]);
      expect(form.body.length).toBeGreaterThan(1024 * 1024);
      const uploaded = await post<LicenceUploadResult[]>(nginx, apiPaths.licenceUpload, form.body, { token: admin, headers: { 'content-type': form.contentType } });
      expect(uploaded.status, uploaded.text).toBe(200);
      expect(uploaded.body.data.map((r) => [r.fileName, r.ok])).toEqual([['nodes-2.lic', true], ...[1, 2, 3, 4].map((i) => [`large-${i}.lic`, false])]);
      expect(uploaded.body.data[1]!.msg).toBe(codeMessage(codes.licenceFileTooLarge, 'en-US', { max: String(licenceLimits.maxFileBytes / 1024) }));
      expect((await post(nginx, apiPaths.licenceActivate, { id: uploaded.body.data[0]!.id }, { token: admin })).body.code).toBe(0);
      for (const node of [a, b]) expect((await post<LicenceDetail>(node, apiPaths.licenceCurrentDetail, {}, { token: admin })).body.data.code).toBe('NODES-0002');

      // over the server's limit (20 files at their limit and the part headers), within nginx's: the server's envelope
      const overServer = await multipart(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.lic`, body: Buffer.alloc(licenceLimits.maxFileBytes, 32) })));
      const serverSays = await post(nginx, apiPaths.licenceUpload, overServer.body, { token: admin, language: 'zh-CN', headers: { 'content-type': overServer.contentType } });
      expect([serverSays.status, serverSays.body.code]).toEqual([413, codes.badRequest]);
      expect(serverSays.body.msg.startsWith(codeMessage(codes.badRequest, 'zh-CN'))).toBe(true);
      // over nginx's own limit: nginx answers, with the same envelope
      const overNginx = Buffer.alloc(7 * 1024 * 1024, 32);
      const nginxSays = await post(nginx, apiPaths.licenceUpload, overNginx, { token: admin, language: 'zh-MO', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
      expect([nginxSays.status, nginxSays.body.code, nginxSays.headers['content-type']]).toEqual([413, codes.badRequest, 'application/json; charset=utf-8']);
      expect(nginxSays.body.msg.startsWith(codeMessage(codes.badRequest, 'zh-MO'))).toBe(true);
      expect(nginx.errorLog()).toMatch(/client intended to send too large body/);
      expect(await newLogRows()).toEqual([
        'licence-activate success sysadmin 127.0.0.1 [NODES-0002]',
        'licence-upload success sysadmin 127.0.0.1 [accepted: NODES-0002; refused: 4]',
        'login success sysadmin 127.0.0.1',
      ]);
    });

    it('a node that stops: nginx passes the calls to the other; none left: an envelope in the caller’s language', async () => {
      const token = await signIn(nginx, 'sysadmin', 'Sysadmin#2026');
      await b.stop();
      const replies = await Promise.all(Array.from({ length: 4 }, () => who(nginx, token)));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect((await webLogin(nginx, 'sysadmin', 'Sysadmin#2026')).body.code).toBe(0);
      await a.stop();
      for (const language of ['en-US', 'zh-CN'] as const) {
        const none = await who(nginx, token, { language });
        expect([none.status, none.body]).toEqual([502, { code: codes.internalError, msg: codeMessage(codes.internalError, language), data: null }]);
      }
      expect(nginx.errorLog()).toMatch(/connect\(\) failed \(111: Connection refused\) while connecting to upstream/);
      expect(await newLogRows()).toEqual(['login success sysadmin 127.0.0.1', 'login success sysadmin 127.0.0.1']);
    });
  });
});
