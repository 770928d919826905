import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm3Hex } from '@campus/card-crypto';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import type { AdminLoginCardRow, CardRecoveryCheck, CardRecycleData, GateSetupState, PreparedCardWrite, SystemKeyCardRow, UserInfo } from '@campus/contracts';
import { preparedWriteTtlMs } from '../../src/modules/card-primitives/prepared-card-writes.ts';
import { createServices } from '../../src/services.ts';
import { attachServer, call, databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { adminCardFixedNo, cardLogin, cardPassword, customerPassword, gateEnv, install, keyCardFixedNo, sealed } from '../support/gate-helpers.ts';
import type { Installed } from '../support/gate-helpers.ts';

// Card management's two-phase writes (issue 14; spec §7 SystemAdminLoginCard and SystemKeyCard): issue, rewrite,
// recycle of administrator login cards; a new key card, recycle and recovery of system key cards.
describe.each(databases)('card management writes (%s)', (kind) => {
  let server: TestServer;
  let installed: Installed;
  const ids: Record<string, string> = {};

  const login = async (account: string, password: string, tenantCode = '1001') =>
    (await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account, password: sm3Hex(password), tenantCode } })).body.data.loginInfo.token;
  const sysadmin = () => login('sysadmin', 'Sysadmin#2026');
  const post = <T = unknown>(path: string, body: unknown, token: string, headers: Record<string, string> = {}) => call<T>(server, 'POST', path, body, { token, language: 'en-US', headers });
  const prepareIssue = async (oprtId: string, fixedNo: string, token: string, headers: Record<string, string> = {}) =>
    post<PreparedCardWrite>(apiPaths.adminCardGetIssueData, { oprtId, fixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, token, headers);
  const image = (write: { body: { data: PreparedCardWrite } }) => Buffer.from(write.body.data.image, 'hex');
  /** The latest issue of a card (a recycled card issued again has a row per issue). */
  const cardRow = async (fixedNo: string) => server.handle.db.selectFrom('admin_login_cards').selectAll().where('fixed_no', '=', fixedNo).orderBy('issue_seq', 'desc').executeTakeFirst();
  const logOf = async (action: string) => (await server.handle.db.selectFrom('operation_logs').selectAll().where('action', '=', action).orderBy('created_at').execute()).map((row) => [row.account, row.result, row.detail]);

  beforeAll(async () => {
    server = await startServer(kind, { env: gateEnv });
    installed = await install(server);
    const services = createServices(server.handle, server.config, { now: server.clock.now });
    // later than sysadmin, who stays the super administrator (the oldest system administrator)
    server.clock.advance(1000);
    ids.deputy = await services.account.createUser({ tenantCode: '1001', account: 'deputy', name: 'Deputy Administrator', password: 'Deputy#2026', isSystemAdmin: true });
    await services.menu.grant(ids.deputy, 'qy', ['1001000']);
    ids.night = await services.account.createUser({ tenantCode: '1001', account: 'night', name: 'Night Administrator', password: 'Night#2026', isSystemAdmin: true });
    ids.branch = await services.account.createUser({ tenantCode: '1002', account: 'branch', name: 'Branch Administrator', password: 'Branch#2026', isSystemAdmin: true });
    ids.branchDeputy = await services.account.createUser({ tenantCode: '1002', account: 'branch2', name: 'Branch Deputy', password: 'Branch#2026', isSystemAdmin: true });
    ids.staff = (await server.handle.db.selectFrom('users').select('id').where('account', '=', 'staff').executeTakeFirstOrThrow()).id;
    ids.sysadmin = (await server.handle.db.selectFrom('users').select('id').where('account', '=', 'sysadmin').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the user detail offers the card tables to a system administrator of the gate deployment only (issue 25, item 17)', async () => {
    const detail = async (token: string) => (await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token })).body.data;
    const token = await sysadmin();
    expect(await detail(token)).toMatchObject({ code: 'sysadmin', mayManageCards: true });
    // and the tables take his token
    expect((await post(apiPaths.adminCardSearch, { page: { index: 1, size: 15 } }, token)).body.code).toBe(0);
    const staff = await login('staff', 'Staff#2026');
    expect(await detail(staff)).toMatchObject({ code: 'staff', mayManageCards: false });
    expect((await post(apiPaths.adminCardSearch, { page: { index: 1, size: 15 } }, staff)).status).toBe(403);
  });

  let deputyImage: Buffer;
  it('issues an administrator card in two phases: nothing until the confirm, then it signs in; one card in use per administrator', async () => {
    const token = await sysadmin();
    expect((await post(apiPaths.operatorIsCanIssueCard, { oprtId: ids.deputy }, token)).body.data).toEqual({ canIssue: true });
    expect((await post(apiPaths.operatorIsCanIssueCard, { oprtId: ids.sysadmin }, token)).body.data).toEqual({ canIssue: false });
    expect((await post(apiPaths.operatorIsCanIssueCard, { oprtId: ids.staff }, token)).body.data).toEqual({ canIssue: false });
    expect((await prepareIssue(ids.staff!, '04AC0001', token)).body.code).toBe(codes.operatorCannotHoldCard);
    const held = await prepareIssue(ids.sysadmin!, '04AC0001', token);
    // the holder named in every language, never a raw {holder} (issue 25, item 8)
    expect(held.body).toMatchObject({ code: codes.cardAlreadyExists, msg: 'Card already exists: System Administrator (sysadmin) already holds a card in use' });
    const heldIn = async (language: string) =>
      (await call(server, 'POST', apiPaths.adminCardGetIssueData, { oprtId: ids.sysadmin, fixedNo: '04AC0001', oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token, language })).body.msg;
    expect(await heldIn('zh-CN')).toBe('卡片已存在：System Administrator (sysadmin)已有使用中的卡');
    expect(await heldIn('zh-MO')).toBe('卡片已存在：System Administrator (sysadmin)已有使用中的卡');
    expect((await prepareIssue(ids.deputy!, keyCardFixedNo, token)).body.code).toBe(codes.cardAlreadyRegistered);

    const prepared = await prepareIssue(ids.deputy!, '04AC0001', token);
    expect(prepared.body.code).toBe(0);
    deputyImage = image(prepared);
    expect((await cardLogin(server, deputyImage, {}, '04AC0001')).body.code).toBe(codes.cardUnknown);
    expect((await post(apiPaths.adminCardIssue, { prepareId: prepared.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardIssue, { prepareId: prepared.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(codes.cardWriteUnknown);

    const signedIn = await cardLogin(server, deputyImage, {}, '04AC0001');
    expect(signedIn.body.code).toBe(0);
    expect((await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token: signedIn.body.data.token })).body.data.code).toBe('deputy');
    expect((await prepareIssue(ids.deputy!, '04AC0009', token)).body.code).toBe(codes.cardAlreadyExists);
    const table = await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, orderBys: [{ field: 'num', isAsc: true }] }, token);
    expect(table.body.recordCount).toBe(2);
    expect(table.body.data.map((row) => [row.oprtNo, row.fixedNo, row.state])).toEqual([
      ['sysadmin', adminCardFixedNo, 20],
      ['deputy', '04AC0001', 20],
    ]);
    expect(await logOf('card-issue')).toContainEqual(['sysadmin', 'success', 'administrator card 04AC0001 of deputy']);
  });

  it('an interrupted issue leaves no card: a failed write, a browser closed before the confirm, a confirm of another kind', async () => {
    const token = await sysadmin();
    const failed = await prepareIssue(ids.night!, '04AD0001', token);
    expect((await post(apiPaths.adminCardIssue, { prepareId: failed.body.data.prepareId, isSuccess: false }, token)).body.code).toBe(0);
    expect((await cardLogin(server, image(failed), {}, '04AD0001')).body.code).toBe(codes.cardUnknown);
    expect(await cardRow('04AD0001')).toBeUndefined();
    expect((await post(apiPaths.adminCardIssue, { prepareId: failed.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(codes.cardWriteUnknown);
    expect(await logOf('card-issue')).toContainEqual(['sysadmin', 'failure', 'administrator card 04AD0001 of night: the reader did not write it']);

    // the browser closed after the write: the prepare expires and the card is not issued
    const abandoned = await prepareIssue(ids.night!, '04AD0001', token);
    // a prepare is only confirmed by the call of its kind
    expect((await post(apiPaths.adminCardRecycle, { id: 'x', prepareId: abandoned.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(codes.cardWriteUnknown);
    expect((await call(server, 'POST', apiPaths.gmSetIssueSecretCard, { prepareId: abandoned.body.data.prepareId, isSuccess: true }, { token })).body.code).toBe(codes.cardWriteUnknown);
    server.clock.advance(preparedWriteTtlMs + 1);
    const late = await post(apiPaths.adminCardIssue, { prepareId: abandoned.body.data.prepareId, isSuccess: true }, await sysadmin());
    expect(late.body.code).toBe(codes.cardWriteUnknown);
    expect(await cardRow('04AD0001')).toBeUndefined();
    expect((await post(apiPaths.operatorIsCanIssueCard, { oprtId: ids.night }, await sysadmin())).body.data).toEqual({ canIssue: true });
  });

  it('two administrators issuing to one operator at once: one card is issued, the other confirm is refused', async () => {
    const [a, b] = [await sysadmin(), installed.masterToken];
    const first = await prepareIssue(ids.night!, '04AD0002', a);
    const second = await prepareIssue(ids.night!, '04AD0003', b);
    expect([first.body.code, second.body.code]).toEqual([0, 0]);
    const replies = await Promise.all([
      post(apiPaths.adminCardIssue, { prepareId: first.body.data.prepareId, isSuccess: true }, a),
      post(apiPaths.adminCardIssue, { prepareId: second.body.data.prepareId, isSuccess: true }, b),
    ]);
    expect(replies.map((reply) => reply.body.code).sort()).toEqual([0, codes.cardAlreadyExists]);
    const cards = await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, filters: [{ field: 'OprtId', value: ids.night! }] }, a);
    expect(cards.body.data.map((row) => row.state)).toEqual([20]);
  });

  it('one card in use per administrator: a lost card is not found again while a newer one is in use', async () => {
    const token = await sysadmin();
    const [old] = (await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, filters: [{ field: 'OprtId', value: ids.night! }] }, token)).body.data;
    expect((await post(apiPaths.adminCardLoss, { ids: [old!.id] }, token)).body.code).toBe(0);
    const replacement = await prepareIssue(ids.night!, '04AD0004', token);
    expect((await post(apiPaths.adminCardIssue, { prepareId: replacement.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
    const unLoss = await post(apiPaths.adminCardUnLoss, { ids: [old!.id] }, token);
    expect(unLoss.body).toMatchObject({ code: codes.cardAlreadyExists, msg: 'Card already exists: Night Administrator (night) already holds a card in use' });
    expect((await cardRow(old!.fixedNo))!.state).toBe(40);
    // found again once the newer card is out of use
    const newer = (await cardRow('04AD0004'))!;
    expect((await post(apiPaths.adminCardFreeze, { ids: [newer.id] }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardUnLoss, { ids: [old!.id] }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardUnFreeze, { ids: [newer.id] }, token)).body.code).toBe(codes.cardAlreadyExists);
  });

  it('rewrite: the card gets a new issue number; its older image (and every copy) stops signing in, and its sessions end', async () => {
    const token = await sysadmin();
    const deputyCard = (await cardRow('04AC0001'))!;
    const session = (await cardLogin(server, deputyImage, {}, '04AC0001')).body.data.token;
    expect((await post(apiPaths.adminCardRewrite, { id: deputyCard.id, fixedNo: '04AC0002' }, token)).body).toMatchObject({
      code: codes.notTheSelectedCard,
      msg: 'The card on the reader (04AC0002) is not the selected card: place that card on the reader',
    });
    const rewrite = await post<PreparedCardWrite>(apiPaths.adminCardRewrite, { id: deputyCard.id, fixedNo: '04ac0001' }, token);
    expect(rewrite.body.code).toBe(0);
    expect((await post(apiPaths.adminCardIssue, { prepareId: rewrite.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
    expect((await cardLogin(server, deputyImage, {}, '04AC0001')).body.code).toBe(codes.cardOutdated);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: session })).status).toBe(401);
    deputyImage = image(rewrite);
    expect((await cardLogin(server, deputyImage, {}, '04AC0001')).body.code).toBe(0);
    expect(await logOf('card-rewrite')).toEqual([['sysadmin', 'success', 'administrator card 04AC0001 of deputy']]);
    // only a card in use is written again
    expect((await post(apiPaths.adminCardLoss, { ids: [deputyCard.id] }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardRewrite, { id: deputyCard.id, fixedNo: '04AC0001' }, token)).body.code).toBe(codes.cardLost);
    expect((await post(apiPaths.adminCardUnLoss, { ids: [deputyCard.id] }, token)).body.code).toBe(0);
  });

  it('recycle: in use or frozen only; confirmed once for its own card; the card stops signing in and may be issued again', async () => {
    const token = await sysadmin();
    const deputyCard = (await cardRow('04AC0001'))!;
    const nightCard = (await cardRow('04AD0002')) ?? (await cardRow('04AD0003'))!;
    expect((await post(apiPaths.adminCardLoss, { ids: [deputyCard.id] }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardGetRecycleData, { id: deputyCard.id }, token)).body.code).toBe(codes.cardActionNotAllowed);
    expect((await post(apiPaths.adminCardUnLoss, { ids: [deputyCard.id] }, token)).body.code).toBe(0);
    const session = (await cardLogin(server, deputyImage, {}, '04AC0001')).body.data.token;

    const cancelled = await post<CardRecycleData>(apiPaths.adminCardGetRecycleData, { id: deputyCard.id }, token);
    expect(cancelled.body.data).toMatchObject({ id: deputyCard.id, fixedNo: '04AC0001', cardKind: 11 });
    expect((await post(apiPaths.adminCardRecycle, { id: deputyCard.id, prepareId: cancelled.body.data.prepareId, isSuccess: false }, token)).body.code).toBe(0);
    expect((await cardRow('04AC0001'))!.state).toBe(20);

    const recycle = await post<CardRecycleData>(apiPaths.adminCardGetRecycleData, { id: deputyCard.id }, token);
    // a confirm for another card is refused and leaves the prepared recycle as it was
    expect((await post(apiPaths.adminCardRecycle, { id: nightCard.id, prepareId: recycle.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(codes.cardWriteUnknown);
    expect((await cardRow(nightCard.fixed_no))!.state).toBe(20);
    expect((await post(apiPaths.adminCardRecycle, { id: deputyCard.id, prepareId: recycle.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardRecycle, { id: deputyCard.id, prepareId: recycle.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(codes.cardWriteUnknown);
    expect((await cardRow('04AC0001'))!.state).toBe(30);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: session })).status).toBe(401);
    expect((await cardLogin(server, deputyImage, {}, '04AC0001')).body.code).toBe(codes.cardNotInUse);
    expect(await logOf('card-recycle')).toEqual([
      ['sysadmin', 'failure', 'administrator card 04AC0001 of deputy: the reader did not write it'],
      ['sysadmin', 'success', 'administrator card 04AC0001 of deputy'],
    ]);

    // the blank card is issued again, under the next issue number, as a new row issued now: the recycled row stays
    // in the table as the card's history (issue 25, item 10)
    const firstIssue = (await cardRow('04AC0001'))!;
    server.clock.advance(60_000);
    const again = await prepareIssue(ids.deputy!, '04AC0001', token);
    expect(again.body.code).toBe(0);
    expect((await post(apiPaths.adminCardIssue, { prepareId: again.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
    expect((await cardRow('04AC0001'))!).toMatchObject({ state: 20, issue_seq: 3 });
    expect((await cardLogin(server, image(again), {}, '04AC0001')).body.code).toBe(0);
    // the recycled issue's image (a copy kept of it) stays refused
    expect((await cardLogin(server, deputyImage, {}, '04AC0001')).body.code).toBe(codes.cardOutdated);
    const history = await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, filters: [{ field: 'likeSearch', value: '04AC0001' }], orderBys: [{ field: 'createTime', isAsc: true }] }, token);
    expect(history.body.recordCount).toBe(2);
    expect(history.body.data.map((row) => [row.oprtNo, row.state, row.createTime])).toEqual([
      ['deputy', 30, Number(firstIssue.created_at)],
      ['deputy', 20, server.clock.now()],
    ]);
    expect(history.body.data[0]!.id).toBe(firstIssue.id);
    expect((await post<AdminLoginCardRow | null>(apiPaths.adminCardSeek, { fixedNo: '04AC0001' }, token)).body.data).toMatchObject({ state: 20, createTime: server.clock.now() });
  });

  it('tenant 1001 never sees or changes tenant 1002’s cards', async () => {
    const branchHeaders = { tenantcode: '1002' };
    const prepared = await prepareIssue(ids.branch!, '04AE0001', installed.masterToken, branchHeaders);
    expect(prepared.body.code).toBe(0);
    // a confirm from the other tenant does not land
    expect((await post(apiPaths.adminCardIssue, { prepareId: prepared.body.data.prepareId, isSuccess: true }, await sysadmin())).body.code).toBe(codes.cardWriteUnknown);
    expect((await post(apiPaths.adminCardIssue, { prepareId: prepared.body.data.prepareId, isSuccess: true }, installed.masterToken, branchHeaders)).body.code).toBe(0);
    const branchCard = (await cardRow('04AE0001'))!;
    expect(branchCard).toMatchObject({ tenant_code: '1002', state: 20 });

    const token = await sysadmin();
    const table = await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, filters: [{ field: 'likeSearch', value: '04AE' }] }, token);
    expect(table.body).toMatchObject({ recordCount: 0, data: [] });
    expect((await post(apiPaths.adminCardSeek, { fixedNo: '04AE0001' }, token)).body.data).toBeNull();
    expect((await post(apiPaths.adminCardLoss, { ids: [branchCard.id] }, token)).body.code).toBe(codes.notFound);
    expect((await post(apiPaths.adminCardGetRecycleData, { id: branchCard.id }, token)).body.code).toBe(codes.notFound);
    expect((await post(apiPaths.adminCardRewrite, { id: branchCard.id, fixedNo: '04AE0001' }, token)).body.code).toBe(codes.notFound);
    expect((await post(apiPaths.operatorIsCanIssueCard, { oprtId: ids.branch }, token)).body.data).toEqual({ canIssue: false });
    expect((await prepareIssue(ids.branch!, '04AE0002', token)).body.code).toBe(codes.operatorCannotHoldCard);
    expect((await cardRow('04AE0001'))!.state).toBe(20);
    const branchTable = await post<AdminLoginCardRow[]>(apiPaths.adminCardSearch, { page: { index: 1, size: 15 } }, installed.masterToken, branchHeaders);
    expect(branchTable.body.data.map((row) => row.oprtNo)).toEqual(['branch']);
  });

  it('the tenant’s last administrator card in use is neither recycled nor reported damaged; of two acting at once on the last two, one is refused', async () => {
    const branch = { tenantcode: '1002' };
    const master = installed.masterToken;
    const only = (await cardRow('04AE0001'))!;
    const lastCard = { code: codes.lastAdminCardInUse, msg: 'Card 04AE0001 is the last administrator card in use: put another administrator card in use first (nothing was changed)' };
    expect((await post(apiPaths.adminCardGetRecycleData, { id: only.id }, master, branch)).body).toMatchObject(lastCard);
    expect((await post(apiPaths.adminCardDamage, { ids: [only.id] }, master, branch)).body).toMatchObject(lastCard);
    expect((await call(server, 'POST', apiPaths.adminCardDamage, { ids: [only.id] }, { token: master, language: 'zh-MO', headers: branch })).body.msg).toBe(
      '卡片 04AE0001 是最後一張使用中的管理員卡：請先讓另一張管理員卡投入使用（未作任何更改）',
    );
    expect((await cardRow('04AE0001'))!.state).toBe(20);

    const second = await prepareIssue(ids.branchDeputy!, '04AE0002', master, branch);
    expect((await post(apiPaths.adminCardIssue, { prepareId: second.body.data.prepareId, isSuccess: true }, master, branch)).body.code).toBe(0);
    const other = (await cardRow('04AE0002'))!;
    const [damage, recycle] = await Promise.all([
      post(apiPaths.adminCardDamage, { ids: [only.id] }, master, branch),
      post<CardRecycleData>(apiPaths.adminCardGetRecycleData, { id: other.id }, master, branch),
    ]);
    expect([damage.body.code, recycle.body.code].sort()).toEqual([0, codes.lastAdminCardInUse]);
    if (recycle.body.code === 0) {
      // a card being recycled no longer counts as in use; a recycle the reader did not do gives it back
      expect((await cardRow('04AE0001'))!.state).toBe(20);
      expect((await post(apiPaths.adminCardRecycle, { id: other.id, prepareId: recycle.body.data.prepareId, isSuccess: false }, master, branch)).body.code).toBe(0);
      expect((await post(apiPaths.adminCardDamage, { ids: [only.id] }, master, branch)).body.code).toBe(0);
    }
    expect((await cardRow('04AE0001'))!.state).toBe(60);
    expect((await post(apiPaths.adminCardGetRecycleData, { id: other.id }, master, branch)).body.code).toBe(codes.lastAdminCardInUse);
    // a card not in use may go: frozen, the last card is recycled
    expect((await post(apiPaths.adminCardFreeze, { ids: [other.id] }, master, branch)).body.code).toBe(0);
    expect((await post(apiPaths.adminCardGetRecycleData, { id: other.id }, master, branch)).body.code).toBe(0);
  });

  describe('system key cards', () => {
    const keyRow = async (fixedNo: string) => server.handle.db.selectFrom('system_key_cards').selectAll().where('fixed_no', '=', fixedNo).executeTakeFirstOrThrow();
    let newKeyImage: Buffer;

    it('a new key card only while none is in use; then the old one is recycled', async () => {
      const token = await sysadmin();
      expect((await post(apiPaths.systemKeyCardAdd, { fixedNo: '04AF0001' }, token)).body).toMatchObject({ code: codes.cardAlreadyExists, msg: 'Card already exists: this installation already holds a card in use' });
      const first = await keyRow(keyCardFixedNo);
      expect((await post(apiPaths.keyCardFreeze, { id: first.id }, token)).body.code).toBe(0);
      expect((await post(apiPaths.systemKeyCardCheckCanIssue, { fixedNo: '04AF0001' }, token)).body.data).toEqual({ canIssue: true });
      const add = await post<PreparedCardWrite>(apiPaths.systemKeyCardAdd, { fixedNo: '04AF0001' }, token);
      expect(add.body.code).toBe(0);
      newKeyImage = image(add);
      expect((await post(apiPaths.gmSetIssueSecretCard, { prepareId: add.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
      expect((await keyRow('04AF0001')).state).toBe(20);
      expect((await call(server, 'POST', apiPaths.keyCardUnFreeze, { id: first.id }, { token, language: 'zh-MO' })).body).toMatchObject({ code: codes.cardAlreadyExists, msg: '卡片已存在：本系統已有使用中的卡' });

      const recycle = await post<CardRecycleData>(apiPaths.keyCardGetRecycleData, { id: first.id }, token);
      expect(recycle.body.data).toMatchObject({ id: first.id, fixedNo: keyCardFixedNo, cardKind: 11 });
      expect((await post(apiPaths.keyCardRecycle, { id: first.id, prepareId: recycle.body.data.prepareId, isSuccess: true }, token)).body.code).toBe(0);
      expect((await post(apiPaths.keyCardGetRecycleData, { id: first.id }, token)).body.code).toBe(codes.cardActionNotAllowed);
      const table = await post<SystemKeyCardRow[]>(apiPaths.keyCardSearch, { page: { index: 1, size: 15 }, orderBys: [{ field: 'fixedNo', isAsc: true }] }, token);
      expect(table.body.data.map((row) => [row.fixedNo, row.state])).toEqual([
        [keyCardFixedNo, 30],
        ['04AF0001', 20],
      ]);
      expect(await logOf('card-recycle')).toContainEqual(['sysadmin', 'success', `system key card ${keyCardFixedNo} (tenant 1001)`]);
    });

    it('recovery: a server that lost its KEK gets the system key back from the key card in use and the customer password', async () => {
      const other = await attachServer(server, { systemKeyKekFile: `${tempDir()}/replaced.kek` });
      try {
        const at = (path: string, body: unknown, token: string) => call(other, 'POST', path, body, { token, language: 'en-US' });
        const token = (await call<{ loginInfo: { token: string } }>(other, 'POST', apiPaths.webLogin, { user: { account: 'sysadmin', password: sm3Hex('Sysadmin#2026'), tenantCode: '1001' } })).body.data.loginInfo.token;
        expect((await call<GateSetupState>(other, 'POST', apiPaths.gmIsSystemInit)).body.data.hasSecret).toBe(false);
        expect((await call(other, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: installed.adminCardImage.toString('hex') })).body.code).toBe(codes.systemSecretMissing);

        // the recycled key card cannot recover; the one in use can
        expect((await at(apiPaths.keyCardCheckCanRecovery, { fixedNo: keyCardFixedNo }, token)).body.data).toEqual({ canRecovery: false, prepareId: null });
        const check = (await at(apiPaths.keyCardCheckCanRecovery, { fixedNo: '04AF0001' }, token)) as { body: { data: CardRecoveryCheck } };
        expect(check.body.data.canRecovery).toBe(true);
        const prepareId = check.body.data.prepareId!;
        const confirm = (extra: object) => at(apiPaths.keyCardRecoverySystemKey, { prepareId, isSuccess: true, fixedNo: '04AF0001', image: newKeyImage.toString('hex'), customerPwd: sm3Hex(customerPassword), ...extra }, token);
        // a confirm of success without the card it read is refused in the caller's language, and the write stays open
        const incomplete = await call(other, 'POST', apiPaths.keyCardRecoverySystemKey, { prepareId, isSuccess: true, fixedNo: '04AF0001' }, { token, language: 'zh-MO' });
        expect(incomplete.status).toBe(400);
        expect(incomplete.body).toEqual({ code: codes.badRequest, msg: `${codeMessage(codes.badRequest, 'zh-MO')}: body/image and body/customerPwd are required when isSuccess is true`, data: null });
        expect((await confirm({ fixedNo: keyCardFixedNo })).body.code).toBe(codes.cardWriteUnknown);
        expect((await confirm({ customerPwd: sm3Hex('Wrong#2026') })).body.code).toBe(codes.customerPasswordWrong);
        const changed = Buffer.from(newKeyImage);
        changed[changed.length - 1] = (changed[changed.length - 1] ?? 0) ^ 1; // the MAC
        expect((await confirm({ image: changed.toString('hex') })).body.code).toBe(codes.keyCardCannotRecover);
        // an administrator card read in place of the key card: named, and the key card asked for (issue 25, item 11)
        const adminCard = await call(other, 'POST', apiPaths.keyCardRecoverySystemKey, { prepareId, isSuccess: true, fixedNo: '04AF0001', image: installed.adminCardImage.toString('hex'), customerPwd: sm3Hex(customerPassword) }, { token, language: 'zh-MO' });
        expect(adminCard.body).toEqual({ code: codes.keyCardCannotRecover, msg: '讀到的卡片是管理員登入卡，不是系統密鑰卡：恢復系統需要使用中的系統密鑰卡', data: null });
        const recovered = (await confirm({})) as { body: { code: number; data: GateSetupState } };
        expect(recovered.body.code).toBe(0);
        expect(recovered.body.data.hasSecret).toBe(true);
        expect((await confirm({})).body.code).toBe(codes.cardWriteUnknown);
        expect((await call(other, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: installed.adminCardImage.toString('hex') })).body.code).toBe(0);
        // the key is now sealed under the replacing KEK: the server with the old one has to recover in turn
        expect((await call<GateSetupState>(server, 'POST', apiPaths.gmIsSystemInit)).body.data.hasSecret).toBe(false);
        expect(await logOf('system-key-recovery')).toEqual([
          ['sysadmin', 'failure', 'system key card 04AF0001: wrong customer password (tenant 1001)'],
          ['sysadmin', 'failure', 'system key card 04AF0001: cannot recover (tenant 1001)'],
          ['sysadmin', 'failure', 'system key card 04AF0001: cannot recover (tenant 1001)'],
          ['sysadmin', 'success', 'system key card 04AF0001 (tenant 1001)'],
        ]);
      } finally {
        await other.close();
      }
    });
  });

  it('a gate demo (DEMO_CARDS on) gets its card history when it is initialised, and only then', async () => {
    const demo = await startServer(kind, { env: { ...gateEnv, DEMO_CARDS: 'on' } });
    try {
      expect(await demo.handle.db.selectFrom('admin_login_cards').select('id').execute()).toEqual([]);
      const { masterToken } = await install(demo);
      const table = await call<AdminLoginCardRow[]>(demo, 'POST', apiPaths.adminCardSearch, { page: { index: 1, size: 15 }, orderBys: [{ field: 'fixedNo', isAsc: true }] }, { token: masterToken });
      expect(table.body.data.map((row) => [row.fixedNo, row.oprtNo, row.state])).toEqual([
        [adminCardFixedNo, 'sysadmin', 20],
        ['DC000001', 'sysadmin', 60],
        ['DC000002', 'sysadmin', 30],
        ['DC000003', 'sysadmin', 40],
        ['DC000004', 'sysadmin', 80],
      ]);
      const keys = await call<SystemKeyCardRow[]>(demo, 'POST', apiPaths.keyCardSearch, { page: { index: 1, size: 15 }, orderBys: [{ field: 'fixedNo', isAsc: true }] }, { token: masterToken });
      expect(keys.body.data.map((row) => [row.fixedNo, row.state])).toEqual([
        [keyCardFixedNo, 20],
        ['DC0000A1', 60],
      ]);
    } finally {
      await demo.close();
    }
  });
});
