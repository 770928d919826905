import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codeMessage, codes, licenceLimits, licenceStates, shellVersion } from '@campus/contracts';
import type { CustomerInfo, Envelope, LicenceApp, LicenceDetail, LicencePermission, LicenceSearchReply, LicenceUploadResult, ProductImages, ProductInfo } from '@campus/contracts';
import { issueLicenceFile } from '../../src/modules/licence/licence-file.ts';
import { call, counts, databases, sha256, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { docsLicences, edKey, samplePayload, smKey } from '../support/licence-helpers.ts';

const dayMs = 86_400_000;
const expiredExample = fs.readFileSync(path.join(docsLicences, 'expired-example.lic'));
const tamperedExample = fs.readFileSync(path.join(docsLicences, 'tampered-example.lic'));

interface UploadFile {
  name: string;
  body: Buffer | string;
}

async function upload(server: { url: string }, token: string | undefined, files: UploadFile[]): Promise<{ status: number; body: Envelope<LicenceUploadResult[]> }> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([typeof f.body === 'string' ? f.body : new Uint8Array(f.body)]), f.name);
  const headers: Record<string, string> = { language: 'en-US' };
  if (token) headers.token = token;
  const res = await fetch(`${server.url}${apiPaths.licenceUpload}`, { method: 'POST', headers, body: form });
  return { status: res.status, body: JSON.parse(await res.text()) as Envelope<LicenceUploadResult[]> };
}

const en = (code: Parameters<typeof codeMessage>[0], values: Record<string, string> = {}) => codeMessage(code, 'en-US', values);

describe.each(databases)('licences on the demo (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  let staff: string;
  const post = <T>(p: string, body?: unknown, token: string | null = admin) => call<T>(server, 'POST', p, body ?? {}, { token: token ?? undefined, language: 'en-US' });
  const permission = async () => (await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token: admin })).body.data;
  /** Moves the clock (sessions expire with it, so the administrator signs in again). */
  const advance = async (ms: number) => {
    server.clock.advance(ms);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  };

  beforeAll(async () => {
    server = await startServer(kind);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    staff = await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('starts with the demo licence in effect, read from its signed file', async () => {
    expect(await permission()).toEqual({ isNormal: true, isSystemAdmin: true, isViewPermission: true, isAddTrialPermission: false, isAddOfficialPermission: true, licenseType: 2, licenseState: 5 });
    const current = await post<LicenceDetail>(apiPaths.licenceCurrentDetail);
    expect(current.body.code).toBe(codes.ok);
    const end = Date.parse('2099-12-31T23:59:59.999+08:00');
    expect(current.body.data).toMatchObject({
      code: 'DEMO-2026-0001',
      state: licenceStates.normal,
      effectiveness: licenceStates.inEffect,
      isFormal: true,
      beginTime: Date.parse('2026-01-01T00:00:00+08:00'),
      endTime: end,
      loseActivateTime: end,
      empCount: 9_999_999,
      customerName: 'Demo Campus',
      isHasMobile: true,
    });
    expect(current.body.data.term).toBe(Math.round((end - Date.parse('2026-01-01T00:00:00+08:00')) / dayMs));
    expect(current.body.data.infos.map((i) => i.appId)).toHaveLength(14);
    expect(current.body.data.infos.find((i) => i.appId === 'qy')?.appName).toBe('Enterprise Data');
    // the applications are named in the reader's language, whatever words the file used
    for (const [language, name] of [['zh-MO', '企業數據'], ['zh-CN', '企业数据']] as const) {
      for (const [p, body] of [[apiPaths.licenceDetail, { code: 'DEMO-2026-0001' }], [apiPaths.licenceOldDetail, {}], [apiPaths.licenceCurrentDetail, {}]] as const) {
        const read = await call<LicenceDetail>(server, 'POST', p, body, { token: admin, language });
        expect(read.body.data.infos.find((i) => i.appId === 'qy')?.appName).toBe(name);
      }
    }
    expect((await post<LicenceDetail>(apiPaths.licenceOldDetail)).body.data.code).toBe('DEMO-2026-0001');
    const info = await call<CustomerInfo>(server, 'GET', apiPaths.customerInfo, undefined, { token: staff });
    expect(info.body.data.customerNo).toBe('10001');
    expect(info.body.data.systemCode).toMatch(/^[0-9A-F]{16}$/);
  });

  it('product info and images need no session; the title comes from productName in the caller language', async () => {
    const sys = await call<ProductInfo>(server, 'GET', apiPaths.licenceSysInfos, undefined, { language: 'en-US' });
    expect(sys.status).toBe(200);
    expect(sys.body.data).toMatchObject({ productName: 'Campus Management Platform', productVer: shellVersion });
    expect((await call<ProductInfo>(server, 'GET', apiPaths.productInfo, undefined, { language: 'zh-MO' })).body.data.productName).toBe('智慧園區管理平台');
    const images = await call<ProductImages>(server, 'GET', apiPaths.licenceProductImages);
    expect(images.body.data.productLogo).toMatch(/^\/oss\/file\/getObject\//);
    expect((await fetch(`${server.url}${images.body.data.loginBg}`)).status).toBe(200);
  });

  it('401 without a token, 403 for a user who is not a system administrator', async () => {
    const adminCalls = [apiPaths.licenceDetail, apiPaths.licenceOldDetail, apiPaths.licenceActivate, apiPaths.licenceAppList, apiPaths.licenceSearch, apiPaths.licenceCurrentDetail, apiPaths.addTrialLicence];
    for (const p of adminCalls) {
      expect((await post(p, {}, null)).status, p).toBe(401);
      const denied = await post(p, {}, staff);
      expect(denied.status, p).toBe(403);
      expect(denied.body.code).toBe(codes.noPermission);
    }
    expect((await upload(server, undefined, [{ name: 'a.lic', body: expiredExample }])).status).toBe(401);
    expect((await upload(server, staff, [{ name: 'a.lic', body: expiredExample }])).status).toBe(403);
    expect((await call(server, 'GET', apiPaths.licencePermission)).status).toBe(401);
    expect((await call(server, 'GET', apiPaths.customerInfo)).status).toBe(401);
    const staffView = (await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token: staff })).body.data;
    expect(staffView).toMatchObject({ isNormal: true, isSystemAdmin: false, isViewPermission: false, isAddTrialPermission: false, isAddOfficialPermission: false });
  });

  it('upload: each file is checked and answered on its own, in order', async () => {
    server.clock.advance(1000); // uploaded after the seed's licence: listed before it
    const otherInstallation = issueLicenceFile(samplePayload({ code: 'OTHER-0001', customerNo: '20002' }), edKey);
    const reply = await upload(server, admin, [
      { name: 'notes.txt', body: 'hello' },
      { name: 'expired-example.lic', body: expiredExample },
      { name: 'tampered-example.lic', body: tamperedExample },
      { name: 'other.lic', body: otherInstallation },
      { name: 'big.lic', body: Buffer.alloc(300 * 1024, 32) },
      { name: 'empty.lic', body: '' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    const results = reply.body.data;
    expect(results.map((r) => [r.fileName, r.ok])).toEqual([
      ['notes.txt', false],
      ['expired-example.lic', true],
      ['tampered-example.lic', false],
      ['other.lic', false],
      ['big.lic', false],
      ['empty.lic', false],
    ]);
    expect(results[0]?.msg).toBe(en(codes.licenceNotLicFile));
    expect(results[1]).toMatchObject({ code: 'EXAMPLE-EXPIRED-2025', msg: 'Success' });
    expect(results[2]?.msg).toBe(en(codes.licenceTampered));
    expect(results[3]?.msg).toBe(en(codes.licenceOtherInstallation, { customerNo: '20002' }));
    expect(results[4]?.msg).toBe(en(codes.licenceFileTooLarge, { max: '256' }));
    expect(results[5]?.msg).toBe(en(codes.licenceTampered));
    const again = await upload(server, admin, [{ name: 'copy.LIC', body: expiredExample }]);
    expect(again.body.data[0]).toMatchObject({ ok: true, id: results[1]?.id, code: 'EXAMPLE-EXPIRED-2025' });
    const sameCode = issueLicenceFile(samplePayload({ code: 'EXAMPLE-EXPIRED-2025' }), edKey);
    expect((await upload(server, admin, [{ name: 'x.lic', body: sameCode }])).body.data[0]?.msg).toBe(en(codes.licenceCodeConflict, { code: 'EXAMPLE-EXPIRED-2025' }));
    expect((await permission()).isNormal).toBe(true);
  });

  it('upload: an empty upload, a body that is not multipart and a huge body are refused', async () => {
    const empty = await upload(server, admin, []);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toContain('files');
    const notMultipart = await post(apiPaths.licenceUpload, { files: [] });
    expect(notMultipart.status).toBe(400);
    const huge = await upload(server, admin, [{ name: 'huge.lic', body: Buffer.alloc(6 * 1024 * 1024, 32) }]);
    expect(huge.status).toBe(413);
    expect(huge.body.msg).toContain('larger than');
  });

  it('upload: more files than allowed, a file outside the files field and a cut-off body are refused whole', async () => {
    const stored = async () => (await post<LicenceSearchReply>(apiPaths.licenceSearch, { page: { index: 1, size: 50 } })).body.data.count;
    const before = await stored();
    const fresh = (i: number) => issueLicenceFile(samplePayload({ code: `MANY-${i}` }), edKey);
    const many = Array.from({ length: licenceLimits.maxFilesPerUpload + 1 }, (_, i) => ({ name: `n${i}.lic`, body: fresh(i) }));
    const tooMany = await upload(server, admin, many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toContain(`at most ${licenceLimits.maxFilesPerUpload} files`);

    const form = new FormData();
    form.append('other', new Blob([fresh(99)]), 'a.lic');
    const wrongField = await fetch(`${server.url}${apiPaths.licenceUpload}`, { method: 'POST', headers: { token: admin, language: 'en-US' }, body: form });
    expect(wrongField.status).toBe(400);

    const boundary = 'cut-off-boundary';
    const cutOff = await fetch(`${server.url}${apiPaths.licenceUpload}`, {
      method: 'POST',
      headers: { token: admin, language: 'en-US', 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="a.lic"\r\n\r\nhalf a fi`,
    });
    expect(cutOff.status).toBe(400);
    expect(((await cutOff.json()) as Envelope<null>).msg).toContain('multipart');
    // nothing of any of them was stored
    expect(await stored()).toBe(before);
  });

  it('search: newest first with the count; detail by id and by code', async () => {
    const page = await post<LicenceSearchReply>(apiPaths.licenceSearch, { page: { index: 1, size: 15 } });
    expect(page.body.data.count).toBe(2);
    expect(page.body.data.licenses.map((l) => [l.code, l.state, l.effectiveness])).toEqual([
      ['EXAMPLE-EXPIRED-2025', licenceStates.notActivated, licenceStates.expired],
      ['DEMO-2026-0001', licenceStates.normal, licenceStates.inEffect],
    ]);
    const second = await post<LicenceSearchReply>(apiPaths.licenceSearch, { page: { index: 2, size: 1 } });
    expect(second.body.data.licenses.map((l) => l.code)).toEqual(['DEMO-2026-0001']);
    const byCode = await post<LicenceDetail>(apiPaths.licenceDetail, { code: 'EXAMPLE-EXPIRED-2025' });
    expect(byCode.body.data).toMatchObject({ empCount: 500, isLimitDevice: true, term: 731 });
    expect(byCode.body.data.devices).toEqual([
      { deviceName: 'Door controller', count: 64, beginTime: null, endTime: null, remarks: '' },
      { deviceName: 'Gate', count: -1, beginTime: Date.parse('2024-01-01T00:00:00+08:00'), endTime: Date.parse('2025-06-30T23:59:59.999+08:00'), remarks: '' },
    ]);
    expect((await post<LicenceDetail>(apiPaths.licenceDetail, { id: byCode.body.data.id })).body.data.code).toBe('EXAMPLE-EXPIRED-2025');
    expect((await post(apiPaths.licenceDetail, { code: 'NOPE' })).status).toBe(404);
    expect((await post(apiPaths.licenceDetail, {})).status).toBe(400);
    expect((await post(apiPaths.licenceSearch, { page: { index: 0, size: 15 } })).status).toBe(400);
    expect((await post(apiPaths.licenceSearch, { page: { index: 1, size: 501 } })).status).toBe(400);
  });

  it('activation: an expired licence cannot be activated; a valid one replaces the demo licence (6)', async () => {
    const expired = (await post<LicenceDetail>(apiPaths.licenceDetail, { code: 'EXAMPLE-EXPIRED-2025' })).body.data;
    const refused = await post(apiPaths.licenceActivate, { id: expired.id });
    expect(refused.body.code).toBe(codes.licenceNotActivatable);
    expect((await post(apiPaths.licenceActivate, { id: 'missing' })).status).toBe(404);
    expect((await post(apiPaths.licenceActivate, {})).status).toBe(400);

    const now = server.clock.now();
    const fresh = issueLicenceFile(samplePayload({ code: 'SM2-0001', beginTime: now - dayMs, endTime: now + 20 * dayMs }), smKey);
    const stored = (await upload(server, admin, [{ name: 'sm2.lic', body: fresh }])).body.data[0];
    expect(stored?.ok).toBe(true);
    const activated = await post(apiPaths.licenceActivate, { id: stored?.id });
    expect(activated.body.code).toBe(codes.ok);
    expect(await permission()).toMatchObject({ isNormal: true, licenseType: 2, licenseState: 5 });
    const current = (await post<LicenceDetail>(apiPaths.licenceCurrentDetail)).body.data;
    expect(current).toMatchObject({ code: 'SM2-0001', state: licenceStates.normal, effectiveness: licenceStates.aboutToExpire, activateTime: now });
    expect((await post<LicenceDetail>(apiPaths.licenceDetail, { code: 'DEMO-2026-0001' })).body.data.state).toBe(licenceStates.replaced);

    const logs = await server.handle.db.selectFrom('operation_logs').select(['action', 'result', 'detail']).where('action', 'like', 'licence-%').orderBy('created_at').execute();
    expect(logs.map((l) => `${l.action} ${l.result}`)).toEqual(expect.arrayContaining(['licence-upload success', 'licence-upload failure', 'licence-activate failure', 'licence-activate success']));
    expect(JSON.stringify(logs)).not.toContain(JSON.parse(fresh).signature as string);
  });

  it('the licence in effect expires with the clock (state 3), and activating the demo licence again restores it', async () => {
    await advance(21 * dayMs);
    expect(await permission()).toMatchObject({ isNormal: false, licenseType: 2, licenseState: 3 });
    const demo = (await post<LicenceDetail>(apiPaths.licenceDetail, { code: 'DEMO-2026-0001' })).body.data;
    expect((await post(apiPaths.licenceActivate, { id: demo.id })).body.code).toBe(codes.ok);
    expect(await permission()).toMatchObject({ isNormal: true, licenseState: 5 });
  });

  it('a clock set back more than 10 minutes behind the latest time seen makes every licence tampered', async () => {
    await permission();
    server.clock.advance(-9 * 60_000);
    expect((await permission()).isNormal).toBe(true);
    server.clock.advance(-2 * 60_000 - 1);
    expect(await permission()).toMatchObject({ isNormal: false, licenseType: 1 });
    const demo = (await post<LicenceDetail>(apiPaths.licenceDetail, { code: 'DEMO-2026-0001' })).body.data;
    expect((await post(apiPaths.licenceActivate, { id: demo.id })).body.code).toBe(codes.licenceTampered);
    server.clock.advance(11 * 60_000 + 1);
    expect((await permission()).isNormal).toBe(true);
  });

  it('a stored file changed in the database is re-verified and counts as tampered', async () => {
    const demo = await server.handle.db.selectFrom('licences').select(['id', 'file_text']).where('code', '=', 'DEMO-2026-0001').executeTakeFirstOrThrow();
    const file = JSON.parse(demo.file_text ?? '{}') as { signature: string };
    const changed = (demo.file_text ?? '').replace(file.signature, `${file.signature[0] === 'A' ? 'B' : 'A'}${file.signature.slice(1)}`);
    await server.handle.db.updateTable('licences').set({ file_text: changed }).where('id', '=', demo.id).execute();
    try {
      expect(await permission()).toMatchObject({ isNormal: false, licenseType: 1, licenseState: 4 });
    } finally {
      await server.handle.db.updateTable('licences').set({ file_text: demo.file_text }).where('id', '=', demo.id).execute();
    }
    expect((await permission()).isNormal).toBe(true);
  });

  it('AppList lists the systems of the menu catalogue', async () => {
    const apps = await post<LicenceApp[]>(apiPaths.licenceAppList);
    expect(apps.body.data).toHaveLength(14);
    expect(apps.body.data[0]).toEqual({ appId: 'qy', appName: 'Enterprise Data' });
  });

  it('a trial is refused while a licence is in effect (after checking the password)', async () => {
    const reply = await post(apiPaths.addTrialLicence, { appIds: ['qy'], oprtPwd: sha256('Sysadmin#2026') });
    expect(reply.body.code).toBe(codes.trialNotNeeded);
  });
});

describe.each(databases)('licences on an installation without the demo licence (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  const post = <T>(p: string, body?: unknown) => call<T>(server, 'POST', p, body ?? {}, { token: admin, language: 'en-US' });
  const permission = async () => (await call<LicencePermission>(server, 'GET', apiPaths.licencePermission, undefined, { token: admin })).body.data;

  beforeAll(async () => {
    server = await startServer(kind, { env: { DEMO_LICENCE: 'off' } });
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('no licence yet: the welcome prompt and the trial offer', async () => {
    expect(await permission()).toEqual({ isNormal: false, isSystemAdmin: true, isViewPermission: true, isAddTrialPermission: true, isAddOfficialPermission: true, licenseType: 4, licenseState: 0 });
    expect((await post(apiPaths.licenceCurrentDetail)).body.data).toBeNull();
  });

  it('only an expired licence stored: none within validity (6)', async () => {
    expect((await upload(server, admin, [{ name: 'expired.lic', body: expiredExample }])).body.data[0]?.ok).toBe(true);
    expect(await permission()).toMatchObject({ isNormal: false, licenseType: 2, licenseState: 6, isAddTrialPermission: true });
  });

  it('trial: bad input is 400; a wrong administrator password is a code counted in the lock-out', async () => {
    expect((await post(apiPaths.addTrialLicence, { appIds: [], oprtPwd: sha256('Sysadmin#2026') })).status).toBe(400);
    const unknown = await post(apiPaths.addTrialLicence, { appIds: ['qy', 'zz'], oprtPwd: sha256('Sysadmin#2026') });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('zz');
    expect((await post(apiPaths.addTrialLicence, { appIds: ['qy'] })).status).toBe(400);
    const before = await counts(server);
    const wrong = await post<{ remainingAttempts: number }>(apiPaths.addTrialLicence, { appIds: ['qy'], oprtPwd: sha256('wrong') });
    expect(wrong.body.code).toBe(codes.adminPasswordWrong);
    expect(wrong.body.data.remainingAttempts).toBe(4);
    const after = await counts(server);
    expect(after.failureSum).toBeGreaterThan(before.failureSum);
    expect((await server.handle.db.selectFrom('operation_logs').select('result').where('action', '=', 'licence-trial').execute()).map((r) => r.result)).toEqual(['failure']);
  });

  it('trial: 30 days from now, in effect at once; a second one is refused', async () => {
    const now = server.clock.now();
    const reply = await post(apiPaths.addTrialLicence, { appIds: ['qy', 'kq'], oprtPwd: sha256('Sysadmin#2026') });
    expect(reply.body.code).toBe(codes.ok);
    expect(await permission()).toMatchObject({ isNormal: true, licenseType: 3, licenseState: 5, isAddTrialPermission: false });
    const current = (await post<LicenceDetail>(apiPaths.licenceCurrentDetail)).body.data;
    expect(current).toMatchObject({ isFormal: false, beginTime: now, endTime: now + 30 * dayMs, term: 30, state: 5, effectiveness: licenceStates.aboutToExpire });
    expect(current.infos.map((i) => i.appId)).toEqual(['qy', 'kq']);
    server.clock.advance(30 * dayMs + 1);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    expect(await permission()).toMatchObject({ isNormal: false, licenseType: 3, licenseState: 3, isAddTrialPermission: false });
    const again = await post(apiPaths.addTrialLicence, { appIds: ['qy'], oprtPwd: sha256('Sysadmin#2026') });
    expect(again.body.code).toBe(codes.trialAlreadyRegistered);
  });
});

describe.each(databases)('licences and the installation identity (%s)', (kind) => {
  it('CUSTOMER_NO sets the customer number: the demo licence (10001) is then for another installation', async () => {
    const server = await startServer(kind, { env: { CUSTOMER_NO: '20002' } });
    try {
      const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
      expect((await call<CustomerInfo>(server, 'GET', apiPaths.customerInfo, undefined, { token: admin })).body.data.customerNo).toBe('20002');
      const demo = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'src', 'seed', 'demo-licence.lic'));
      expect((await upload(server, admin, [{ name: 'demo.lic', body: demo }])).body.data[0]?.msg).toBe(en(codes.licenceOtherInstallation, { customerNo: '10001' }));
      const own = issueLicenceFile(samplePayload({ code: 'OWN-1', customerNo: '20002', endTime: Date.UTC(2099, 11, 31) }), edKey);
      expect((await upload(server, admin, [{ name: 'own.lic', body: own }])).body.data[0]?.ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('production without LICENCE_TRUST_FILE trusts no key: every licence is refused with a clear message', async () => {
    const server = await startServer(kind, { env: { NODE_ENV: 'production', CUSTOMER_NO: '10001' } });
    try {
      if (server.seed.mode !== 'production') throw new Error('expected a production seed');
      const admin = await signIn(server, 'admin', server.seed.admin.password, server.seed.admin.tenantCode);
      const reply = await upload(server, admin, [{ name: 'demo.lic', body: fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'src', 'seed', 'demo-licence.lic')) }]);
      expect(reply.body.data[0]).toMatchObject({ ok: false, msg: en(codes.licenceNoTrustedKey) });
    } finally {
      await server.close();
    }
  });
});
