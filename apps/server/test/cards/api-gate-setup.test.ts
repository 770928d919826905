import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { blankImage, makeMotherCard, openAdminCard, readMotherCard, recoverSystemKey, sm3Hex, systemKeyId } from '@campus/card-crypto';
import * as Schema from 'typebox/schema';
import { apiPaths, codeMessage, codes, loginTypes } from '@campus/contracts';
import type { CardLoginSetting, GateSetupState, OperationLogRow, PreparedCardWrite, SuperAdmin, UserInfo } from '@campus/contracts';
import { cardStateRoutes } from '../../src/modules/card-management/card-state-routes.ts';
import { cardTablePaths } from '../../src/modules/card-management/card-table-routes.ts';
import { trustedIssuerPaths } from '../../src/modules/card-management/trusted-issuer-routes.ts';
import { cardLifecyclePaths } from '../../src/modules/card-management/card-lifecycle-routes.ts';
import { attachServer, call, databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { adminCardFixedNo, cardLogin, cardPassword, customerNo, customerPassword, gateEnv, hex, install, keyCardFixedNo, motherFixedNo, recoverFromMother, sealed, fetchKey, signedChallenge, state, swipeMother, testIssuer } from '../support/gate-helpers.ts';
import type { Installed } from '../support/gate-helpers.ts';

describe.each(databases)('gate set-up (%s)', (kind) => {
  describe('a fresh gate deployment, step by step', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(kind, { env: gateEnv });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('starts with nothing done', async () => {
      expect(await state(server)).toEqual({ mjSystem: 21, isGate: true, isInit: false, hasSecret: false, isIssueSecretCard: false, isIssueSuperAdminCard: false, customerNo });
      expect((await call(server, 'POST', apiPaths.gmIsIssueSecretCard)).body.data).toEqual({ isIssue: false });
      expect((await call(server, 'POST', apiPaths.gmGetCardSector)).body.data).toEqual({ layoutVersion: 1, imageSize: 256, cardKind: 11 });
    });

    it('refuses the later steps before initialisation', async () => {
      const mother = readMotherCard(makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(customerPassword) }));
      const verify = await call(server, 'POST', apiPaths.gmMasterCardVerify, { sysKeyCode: mother.sysKeyCode, customerNo, customerPwd: 'ab'.repeat(32), devicePublicKey: testIssuer.publicKey });
      expect(verify.body.code).toBe(codes.systemNotInitialised);
      const add = await call(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: keyCardFixedNo });
      expect(add.status).toBe(401);
      expect(add.body.code).toBe(codes.masterCardTokenInvalid);
      const login = await cardLogin(server, blankImage());
      expect(login.body.code).toBe(codes.systemNotInitialised);
    });

    it('initialisation refuses a wrong customer password, another customer number, and a card that is not a mother card', async () => {
      const image = hex(makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(customerPassword) }));
      const body = { customerNo, customerPwd: sm3Hex(customerPassword), fixedNo: motherFixedNo, image };
      const wrongPassword = await call(server, 'POST', apiPaths.addGmInitData, { ...body, customerPwd: sm3Hex('Wrong#2026') }, { language: 'en-US' });
      expect(wrongPassword.body).toMatchObject({ code: codes.customerPasswordWrong, msg: 'The customer password does not match the card on the reader' });
      expect((await call(server, 'POST', apiPaths.addGmInitData, { ...body, customerNo: '10002' })).body.code).toBe(codes.customerNoMismatch);
      const otherCustomer = hex(makeMotherCard({ customerNo: '20002', customerPwdDigest: sm3Hex(customerPassword) }));
      const other = await call(server, 'POST', apiPaths.addGmInitData, { ...body, customerNo: '20002', image: otherCustomer }, { language: 'en-US' });
      expect(other.body.code).toBe(codes.customerNoOtherInstallation);
      expect(other.body.msg).toContain('10001');
      expect((await call(server, 'POST', apiPaths.addGmInitData, { ...body, image: hex(blankImage()) })).body.code).toBe(codes.notMotherCard);
      expect((await call(server, 'POST', apiPaths.addGmInitData, { ...body, customerNo: '0123' })).status).toBe(400);
      expect((await state(server)).isInit).toBe(false);
    });

    let motherImage: Buffer;
    it('initialises in two phases: nothing until the mother card read back holds the prepared image', async () => {
      const blank = makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(customerPassword) });
      const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex(customerPassword), fixedNo: motherFixedNo, image: hex(blank) });
      expect(prepared.body.code).toBe(0);
      expect(prepared.body.data).toMatchObject({ fixedNo: motherFixedNo, alreadyWritten: false });
      const written = Buffer.from(prepared.body.data.image, 'hex');
      expect(readMotherCard(written).initialised).toBe(true);
      expect((await state(server)).isInit).toBe(false);

      const { prepareId } = prepared.body.data;
      // confirmed without the card read back, or with the old card: refused, and the prepared write survives
      expect((await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId, isSuccess: true })).body.code).toBe(codes.cardWriteUnknown);
      expect((await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId, isSuccess: true, image: hex(blank) })).body.code).toBe(codes.cardWriteUnknown);
      // the write landed but the confirm was lost: the same card again is recognised, not written twice (with the
      // right customer password only)
      const wrongAgain = await call(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex('Wrong#2026'), fixedNo: motherFixedNo, image: hex(written) });
      expect(wrongAgain.body.code).toBe(codes.customerPasswordWrong);
      const again = await call<PreparedCardWrite>(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex(customerPassword), fixedNo: motherFixedNo, image: hex(written) });
      expect(again.body.data).toMatchObject({ alreadyWritten: true, image: hex(written) });
      // the older prepareId is replaced by the new one
      expect((await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId, isSuccess: true, image: hex(written) })).body.code).toBe(codes.cardWriteUnknown);
      const confirmed = await call<GateSetupState>(server, 'POST', apiPaths.gmSetSystemInit, { prepareId: again.body.data.prepareId, isSuccess: true, image: hex(written) });
      expect(confirmed.body.code).toBe(0);
      expect(confirmed.body.data).toMatchObject({ isInit: true, hasSecret: true, isIssueSecretCard: false });
      // once only
      expect((await call(server, 'POST', apiPaths.gmSetSystemInit, { prepareId: again.body.data.prepareId, isSuccess: true, image: hex(written) })).body.code).toBe(codes.cardWriteUnknown);
      motherImage = written;
    });

    it('a second initialisation is refused', async () => {
      const fresh = hex(makeMotherCard({ customerNo, customerPwdDigest: sm3Hex(customerPassword) }));
      const reply = await call(server, 'POST', apiPaths.addGmInitData, { customerNo, customerPwd: sm3Hex(customerPassword), fixedNo: '0BADF00D', image: fresh });
      expect(reply.body.code).toBe(codes.systemAlreadyInitialised);
    });

    it('keeps the system key only sealed: neither the database row nor the log holds it', async () => {
      const key = recoverFromMother(motherImage);
      const row = await server.handle.db.selectFrom('gate_installation').selectAll().executeTakeFirstOrThrow();
      const logs = await server.handle.db.selectFrom('operation_logs').selectAll().execute();
      const everything = JSON.stringify({ row, logs }).toLowerCase();
      expect(everything).not.toContain(key.toString('hex'));
      expect(row.kid).toBe(systemKeyId(key).toString('hex'));
      expect(row.sealed_system_key).toMatch(/^kek1:/);
      expect(fs.statSync(server.config.systemKeyKekFile).mode & 0o777).toBe(0o600);
    });

    let masterToken: string;
    it('the mother card swipe answers a master-card token; a changed proof is refused', async () => {
      const card = readMotherCard(motherImage);
      const forged = await call(server, 'POST', apiPaths.gmMasterCardVerify, { sysKeyCode: card.sysKeyCode, customerNo, customerPwd: `${card.proof.slice(0, 63)}${card.proof.endsWith('0') ? '1' : '0'}`, devicePublicKey: testIssuer.publicKey });
      expect(forged.body.code).toBe(codes.masterCardRejected);
      const reply = await swipeMother(server, motherImage);
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.expiresIn).toBe(900);
      masterToken = reply.body.data.token;
    });

    it('a master-card token is no access token, and an access token is no master-card token', async () => {
      const normal = await call(server, 'GET', apiPaths.userDetail, undefined, { token: masterToken });
      expect(normal.status).toBe(401);
      expect(normal.body.code).toBe(codes.tokenInvalid);
      const digest = sm3Hex('Sysadmin#2026');
      const login = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'sysadmin', password: digest, tenantCode: '1001' } });
      expect(login.body.code).toBe(0);
      const issue = await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token: login.body.data.loginInfo.token });
      expect(issue.status).toBe(401);
      expect(issue.body.code).toBe(codes.masterCardTokenInvalid);
    });

    it('a failed key card write issues nothing', async () => {
      const key = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: keyCardFixedNo }, { token: masterToken });
      expect(key.body.code).toBe(0);
      // the issuer failed: nothing is issued, and the card may be prepared again
      expect((await call(server, 'POST', apiPaths.gmSetIssueSecretCard, { prepareId: key.body.data.prepareId, isSuccess: false }, { token: masterToken })).body.code).toBe(0);
      expect((await state(server)).isIssueSecretCard).toBe(false);
    });

    let keyCardImage: Buffer;
    it('issues the system key card in two phases, once', async () => {
      expect((await call(server, 'POST', apiPaths.systemKeyCardCheckCanIssue, { fixedNo: keyCardFixedNo }, { token: masterToken })).body.data).toEqual({ canIssue: true });
      const key = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: keyCardFixedNo }, { token: masterToken });
      keyCardImage = Buffer.from(key.body.data.image, 'hex');
      expect(recoverSystemKey(keyCardImage, keyCardFixedNo, sm3Hex(customerPassword)).equals(recoverFromMother(motherImage))).toBe(true);
      expect((await call(server, 'POST', apiPaths.gmSetIssueSecretCard, { prepareId: key.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
      expect((await state(server)).isIssueSecretCard).toBe(true);
      expect((await call(server, 'POST', apiPaths.systemKeyCardCheckCanIssue, { fixedNo: keyCardFixedNo }, { token: masterToken })).body.data).toEqual({ canIssue: false });
      const second = await call(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: '04AA0009' }, { token: masterToken });
      expect(second.body.code).toBe(codes.cardAlreadyExists);
    });

    it('seals the system key only to a trusted card issuer: during the set-up, the one that read the mother card', async () => {
      const device = testIssuer;
      const untrusted = await fetchKey(server, device);
      expect(untrusted.body.code).toBe(codes.readerNotTrusted);
      // the master-card token names the issuer that read the mother card: it trusts no other one
      const elsewhere = sm2.generateKeyPairHex();
      expect((await fetchKey(server, elsewhere, { token: masterToken })).body.code).toBe(codes.readerNotTrusted);
      const trusted = await fetchKey(server, device, { token: masterToken });
      expect(trusted.body.code).toBe(0);
      const opened = Buffer.from(sm2.doDecrypt(trusted.body.data.sysKeyData, device.privateKey, 1, { output: 'array' }) as Uint8Array);
      const key = recoverFromMother(motherImage);
      expect(opened.equals(Buffer.concat([key, systemKeyId(key)]))).toBe(true);
      // trusted from now on, without a token
      expect((await fetchKey(server, device)).body.code).toBe(0);
      // another issuer with the system key card; a changed key card is refused
      const other = sm2.generateKeyPairHex();
      const changed = Buffer.from(keyCardImage);
      changed[30] = (changed[30] ?? 0) ^ 1;
      const customerPwd = sm3Hex(customerPassword);
      expect((await call(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: other.publicKey, ...(await signedChallenge(server, other)), fixedNo: keyCardFixedNo, image: hex(changed), customerPwd })).body.code).toBe(codes.cardNotValid);
      expect((await call(server, 'POST', apiPaths.getGmSysKeyData, { devicePublicKey: other.publicKey, ...(await signedChallenge(server, other)), fixedNo: keyCardFixedNo, image: hex(keyCardImage), customerPwd })).body.code).toBe(0);
      expect((await fetchKey(server, other)).body.code).toBe(0);
    });

    it('a public key of the right form that is no point of the curve is a bad request in the caller’s language, not a server error', async () => {
      // found by the route fuzzer: sm-crypto-v2 throws for such a key, and the throw became HTTP 500
      const offCurve = `04${'0'.repeat(128)}`;
      // a challenge of the right form: the key's check comes first
      const signed = { challenge: 'A'.repeat(43), hostName: 'operator-pc', signature: '0'.repeat(128) };
      for (const [path, body] of [
        [apiPaths.getSysKeyChallenge, { devicePublicKey: offCurve }],
        [apiPaths.getSysKeyData, { devicePublicKey: offCurve, ...signed }],
        [apiPaths.getGmSysKeyData, { devicePublicKey: offCurve, ...signed, fixedNo: keyCardFixedNo, image: hex(keyCardImage), customerPwd: sm3Hex(customerPassword) }],
      ] as const) {
        for (const language of ['zh-MO', 'en-US'] as const) {
          const reply = await call(server, 'POST', path, body, { token: masterToken, language });
          expect(reply.status, path).toBe(400);
          expect(reply.body.code, path).toBe(codes.badRequest);
          expect(reply.body.msg, path).toBe(`${codeMessage(codes.badRequest, language)}: body/devicePublicKey must be an uncompressed SM2 public key (130 hex digits)`);
        }
      }
    });

    let adminCardImage: Buffer;
    it('issues the super administrator card: the password policy is the server’s, and only once', async () => {
      const admin = await call<SuperAdmin>(server, 'POST', apiPaths.getSuperAdmin, undefined, { token: masterToken });
      expect(admin.body.data).toMatchObject({ no: 'sysadmin', tenantCode: '1001' });
      const weak = await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex('short'), sealedPwd: await sealed(server, 'short') }, { token: masterToken });
      expect(weak.body.code).toBe(codes.passwordPolicy);
      const keyCardAgain = await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: keyCardFixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token: masterToken });
      expect(keyCardAgain.body.code).toBe(codes.cardAlreadyRegistered);
      const mismatch = await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex('Other#2026'), sealedPwd: await sealed(server, cardPassword) }, { token: masterToken });
      expect(mismatch.status).toBe(400);
      const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token: masterToken });
      expect(prepared.body.code).toBe(0);
      adminCardImage = Buffer.from(prepared.body.data.image, 'hex');
      expect(openAdminCard(adminCardImage, recoverFromMother(motherImage), adminCardFixedNo)).toMatchObject({ oprtNo: 'sysadmin', tenantCode: '1001' });
      // not issued until confirmed: the card does not sign in yet
      expect((await cardLogin(server, adminCardImage)).body.code).toBe(codes.cardUnknown);
      expect((await call(server, 'POST', apiPaths.gmSetIssueSuperAdminCard, { prepareId: prepared.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
      expect(await state(server)).toMatchObject({ isInit: true, hasSecret: true, isIssueSecretCard: true, isIssueSuperAdminCard: true });
      const second = await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: '04AB0003', oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token: masterToken });
      expect(second.body.code).toBe(codes.setUpStepDone);
    });

    it('the card signs in alone and with its password (login type 3); a wrong password counts toward the lock', async () => {
      const alone = await cardLogin(server, adminCardImage);
      expect(alone.body).toMatchObject({ code: 0, data: { tenantCode: '1001' } });
      const info = await call<UserInfo & { cardId?: string }>(server, 'GET', apiPaths.userDetail, undefined, { token: alone.body.data.token });
      expect(info.body.data).toMatchObject({ code: 'sysadmin', loginType: loginTypes.card });
      expect(info.body.data.cardId).toEqual(expect.any(String));
      const withPassword = await cardLogin(server, adminCardImage, { oprtNo: 'sysadmin', oprtPwd: sm3Hex(cardPassword), tenantCode: '1001' });
      expect(withPassword.body.code).toBe(0);
      const wrong = await cardLogin(server, adminCardImage, { oprtNo: 'sysadmin', oprtPwd: sm3Hex('Wrong#2026') });
      expect(wrong.body).toMatchObject({ code: codes.accountOrPasswordWrong, data: { remainingAttempts: 4 } });
      expect((await cardLogin(server, adminCardImage, { oprtNo: 'staff', oprtPwd: sm3Hex(cardPassword) })).body.code).toBe(codes.cardOtherOperator);
      expect((await cardLogin(server, adminCardImage, { tenantCode: '1002' })).body.code).toBe(codes.cardOtherOperator);
      // the right password clears the count
      expect((await cardLogin(server, adminCardImage, { oprtPwd: sm3Hex(cardPassword) })).body.code).toBe(0);
    });

    it('the card alone signs in only where the tenant allows it; the tenant’s system administrator sets that, in its log (issue 46 item 8)', async () => {
      const setting = async (tenantCode?: string) => (await call<CardLoginSetting>(server, 'POST', apiPaths.cardLoginSetting, undefined, { headers: tenantCode ? { tenantcode: tenantCode } : {} })).body.data;
      // the demo seed lets its first tenant's card sign in alone; every other tenant needs the card password
      expect(await setting()).toEqual({ cardLogin: true, cardKind: 11, cardLoginMode: 'card-alone' });
      expect((await setting('1002')).cardLoginMode).toBe('card-and-password');
      const token = (await cardLogin(server, adminCardImage, { oprtPwd: sm3Hex(cardPassword) })).body.data.token;
      const set = (cardLoginMode: string, as = token) => call(server, 'POST', apiPaths.setCardLoginSetting, { cardLoginMode }, { token: as, language: 'en-US' });

      expect((await set('card-and-password')).body.code).toBe(0);
      expect((await setting('1001')).cardLoginMode).toBe('card-and-password');
      const alone = await cardLogin(server, adminCardImage);
      expect(alone.body).toMatchObject({ code: codes.cardPasswordRequired, msg: 'This tenant signs in with the administrator card and its card password: enter the card password with the card' });
      expect(alone.body.data).toBeFalsy();
      const inChinese = await call(server, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: hex(adminCardImage) }, { language: 'zh-MO' });
      expect(inChinese.body.msg).toBe('本租戶的管理員卡登入需要卡密碼：請在刷卡時輸入卡密碼');
      expect((await cardLogin(server, adminCardImage, { oprtNo: 'sysadmin', oprtPwd: sm3Hex(cardPassword) })).body.code).toBe(0);

      // only the tenant's system administrators, only the two settings
      const staff = (await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: sm3Hex('Staff#2026'), tenantCode: '1001' } })).body.data.loginInfo.token;
      expect((await set('card-alone', staff)).status).toBe(403);
      expect((await set('card-alone', '')).status).toBe(401);
      expect((await set('anything')).status).toBe(400);
      expect((await setting('1001')).cardLoginMode).toBe('card-and-password');
      const log = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 50 }, action: 'card-login-setting' }, { token });
      expect(log.body.data.map((row) => [row.account, row.result, row.detail])).toEqual([['sysadmin', 'success', 'card-and-password']]);
      const refused = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 50 }, action: 'card-login', result: 'refused' }, { token });
      expect(refused.body.data.map((row) => row.detail)).toContain(`card ${adminCardFixedNo} alone: the tenant signs in with the card password`);

      expect((await set('card-alone')).body.code).toBe(0);
      expect((await cardLogin(server, adminCardImage)).body.code).toBe(0);
    });

    it('refuses a changed card, a copy on another card, another installation’s card, and a card not in use', async () => {
      const changed = Buffer.from(adminCardImage);
      changed[50] = (changed[50] ?? 0) ^ 0x80;
      expect((await cardLogin(server, changed)).body.code).toBe(codes.cardNotValid);
      expect((await cardLogin(server, adminCardImage, {}, '04FFEE01')).body.code).toBe(codes.cardNotValid);
      expect((await cardLogin(server, keyCardImage, {}, keyCardFixedNo)).body.code).toBe(codes.cardNotValid);
      for (const [state, code] of [[40, codes.cardLost], [80, codes.cardFrozen], [60, codes.cardNotInUse]] as const) {
        await server.handle.db.updateTable('admin_login_cards').set({ state }).where('fixed_no', '=', adminCardFixedNo).execute();
        const reply = await cardLogin(server, adminCardImage);
        expect(reply.body.code, `state ${state}`).toBe(code);
        expect(JSON.stringify(reply.body.data ?? null)).not.toContain('token');
      }
      await server.handle.db.updateTable('admin_login_cards').set({ state: 20 }).where('fixed_no', '=', adminCardFixedNo).execute();
      const logs = await server.handle.db.selectFrom('operation_logs').selectAll().where('action', '=', 'card-login').where('result', '=', 'refused').execute();
      expect(logs.length).toBeGreaterThanOrEqual(3);
    });

    it('the card password change: verify, prepare a new image, confirm; the old image and the sessions end', async () => {
      const token = (await cardLogin(server, adminCardImage)).body.data.token;
      const cardId = (await call<{ cardId: string }>(server, 'GET', apiPaths.userDetail, undefined, { token })).body.data.cardId;
      expect((await call(server, 'POST', apiPaths.verifyGmPassword, { oprtPwd: sm3Hex('Wrong#2026') }, { token })).body.code).toBe(codes.oldPasswordWrong);
      expect((await call(server, 'POST', apiPaths.verifyGmPassword, { oprtPwd: sm3Hex(cardPassword) }, { token })).body.code).toBe(0);
      const next = 'Card#2027b';
      const base = { id: cardId, kindNum: 11, fixedNo: adminCardFixedNo, oprtPwd: sm3Hex(next), sealedPwd: await sealed(server, next) };
      expect((await call(server, 'POST', apiPaths.changeGmPassword, { ...base, oprtOldPwd: sm3Hex('Wrong#2026') }, { token })).body.code).toBe(codes.oldPasswordWrong);
      expect((await call(server, 'POST', apiPaths.changeGmPassword, { ...base, id: 'another-card', oprtOldPwd: sm3Hex(cardPassword) }, { token })).body.code).toBe(codes.cardOtherOperator);
      const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.changeGmPassword, { ...base, oprtOldPwd: sm3Hex(cardPassword) }, { token });
      expect(prepared.body.code).toBe(0);
      const newImage = Buffer.from(prepared.body.data.image, 'hex');
      const confirmed = await call(server, 'POST', apiPaths.changeGmPassword, { prepareId: prepared.body.data.prepareId, isSuccess: true }, { token });
      expect(confirmed.body.code).toBe(0);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
      expect((await cardLogin(server, adminCardImage)).body.code).toBe(codes.cardOutdated);
      expect((await cardLogin(server, newImage, { oprtPwd: sm3Hex(cardPassword) })).body.code).toBe(codes.accountOrPasswordWrong);
      expect((await cardLogin(server, newImage, { oprtPwd: sm3Hex(next) })).body.code).toBe(0);
    });

    it('a super administrator whose card is lost gets a new card onto another blank card; the lost one stays lost', async () => {
      await server.handle.db.updateTable('admin_login_cards').set({ state: 40 }).where('fixed_no', '=', adminCardFixedNo).execute();
      const fresh = await swipeMother(server, motherImage);
      const token = fresh.body.data.token;
      expect((await call(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminCardFixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token })).body.code).toBe(codes.cardAlreadyRegistered);
      const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: '04AB0009', oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(server, cardPassword) }, { token });
      expect(prepared.body.code).toBe(0);
      expect((await call(server, 'POST', apiPaths.gmSetIssueSuperAdminCard, { prepareId: prepared.body.data.prepareId, isSuccess: true }, { token })).body.code).toBe(0);
      expect((await cardLogin(server, Buffer.from(prepared.body.data.image, 'hex'), {}, '04AB0009')).body.code).toBe(0);
      const data = await call<{ cards: { fixedNo: string; state: number; cardNum: number }[] }>(server, 'POST', apiPaths.getSuperAdminIssueData, undefined, { token });
      expect(data.body.data.cards.map((c) => [c.fixedNo, c.state])).toEqual([[adminCardFixedNo, 40], ['04AB0009', 20]]);
      expect(new Set(data.body.data.cards.map((c) => c.cardNum)).size).toBe(2);
    });

    it('the card password calls are for card sign-ins only; the key parameters name the key, never hold it', async () => {
      const login = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'sysadmin', password: sm3Hex('Sysadmin#2026'), tenantCode: '1001' } });
      const params = await call(server, 'GET', apiPaths.sysKeyParam, undefined, { token: login.body.data.loginInfo.token });
      expect(params.body.data).toEqual({ mjSystem: 21, isNationalCrypto: true, sysKeyData: null, keyId: systemKeyId(recoverFromMother(motherImage)).toString('hex'), cardKind: 11 });
      const reply = await call(server, 'POST', apiPaths.verifyGmPassword, { oprtPwd: sm3Hex(cardPassword) }, { token: login.body.data.loginInfo.token });
      expect(reply.body.code).toBe(codes.notCardLogin);
    });
  });

  describe('the whole set-up, then the server loses its key-encryption key', () => {
    let server: TestServer;
    let installed: Installed;
    beforeAll(async () => {
      server = await startServer(kind, { env: gateEnv });
      installed = await install(server);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a server whose KEK does not open the stored key reports the secret missing and refuses card sign-in', async () => {
      expect((await cardLogin(server, installed.adminCardImage)).body.code).toBe(0);
      const other = await attachServer(server, { systemKeyKekFile: `${tempDir()}/other.kek` });
      try {
        expect((await call<GateSetupState>(other, 'POST', apiPaths.gmIsSystemInit)).body.data).toMatchObject({ isInit: true, hasSecret: false });
        const reply = await call(other, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: hex(installed.adminCardImage) });
        expect(reply.status).toBe(200);
        expect(reply.body.code).toBe(codes.systemSecretMissing);
        // the KEK the first server made still opens it
        expect((await cardLogin(server, installed.adminCardImage)).body.code).toBe(0);
      } finally {
        await other.close();
      }
    });

    it('walks every registered route: a master-card token opens no session route, an access token no master-card route', async () => {
      const login = await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account: 'sysadmin', password: sm3Hex('Sysadmin#2026'), tenantCode: '1001' } });
      const accessToken = login.body.data.loginInfo.token;
      const cardManagement = new Set<string>([
        ...cardStateRoutes.flatMap((route) => [route.admin, route.key]),
        ...cardTablePaths,
        ...cardLifecyclePaths,
        ...trustedIssuerPaths,
        apiPaths.systemKeyCardCheckCanIssue,
        apiPaths.systemKeyCardAdd,
        apiPaths.gmSetIssueSecretCard,
      ]);
      const sessionRoutes: string[] = [];
      const masterRoutes: string[] = [];
      for (const route of server.app.routeList) {
        if (route.method !== 'GET' && route.method !== 'POST') continue;
        // logout would end the access token the walk goes on with (the master-card token's answer is checked below)
        if (route.url === apiPaths.logout) continue;
        const url = route.url.replace(/:[A-Za-z]+/g, 'x').replace(/\*/g, 'x');
        const bare = await call(server, route.method, url);
        if (bare.status !== 401) continue;
        if (bare.body.code === codes.masterCardTokenInvalid) masterRoutes.push(`${route.method} ${route.url}`);
        else sessionRoutes.push(`${route.method} ${route.url}`);
        const withMaster = await call(server, route.method, url, undefined, { token: installed.masterToken });
        const withAccess = await call(server, route.method, url, undefined, { token: accessToken });
        if (bare.body.code === codes.masterCardTokenInvalid && cardManagement.has(route.url)) {
          // card management: a master-card token, or a system administrator's access token (spec §6)
          expect(withAccess.body.code, `${route.method} ${route.url} with an access token`).not.toBe(codes.masterCardTokenInvalid);
          expect(withMaster.body.code, `${route.method} ${route.url} with the master-card token`).not.toBe(codes.masterCardTokenInvalid);
        } else if (bare.body.code === codes.masterCardTokenInvalid) {
          expect(withAccess.body.code, `${route.method} ${route.url} with an access token`).toBe(codes.masterCardTokenInvalid);
          expect(withMaster.body.code, `${route.method} ${route.url} with the master-card token`).not.toBe(codes.masterCardTokenInvalid);
        } else {
          expect(withMaster.status, `${route.method} ${route.url} with the master-card token`).toBe(401);
        }
      }
      expect(masterRoutes).toEqual(
        expect.arrayContaining([`POST ${apiPaths.systemKeyCardAdd}`, `POST ${apiPaths.adminCardGetIssueData}`, `POST ${apiPaths.issueSuperAdmin}`, `POST ${apiPaths.gmSetIssueSuperAdminCard}`, `POST ${apiPaths.getSuperAdmin}`]),
      );
      expect(sessionRoutes).toEqual(expect.arrayContaining([`POST ${apiPaths.verifyGmPassword}`, `POST ${apiPaths.changeGmPassword}`, `GET ${apiPaths.userDetail}`]));
      // the access token was good all along, and logout takes no master-card token
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: accessToken })).status).toBe(200);
      expect((await call(server, 'POST', apiPaths.logout, undefined, { token: installed.masterToken })).status).toBe(401);
    });

    it('a second server with the same KEK file answers the same (stateless peers on one database)', async () => {
      const peer = await attachServer(server);
      try {
        const reply = await call<{ token: string }>(peer, 'POST', apiPaths.cardLogin, { cardKind: 11, fixedNo: adminCardFixedNo, image: hex(installed.adminCardImage) });
        expect(reply.body.code).toBe(0);
        expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: reply.body.data.token })).body.code).toBe(0);
        const master = await call(peer, 'POST', apiPaths.getSuperAdminIssueData, undefined, { token: installed.masterToken });
        expect(master.body).toMatchObject({ code: 0, data: { no: 'sysadmin', cards: [{ fixedNo: adminCardFixedNo, state: 20 }] } });
      } finally {
        await peer.close();
      }
    });
  });

  describe('card states (spec §4): loss, unloss, freeze, unfreeze, damage', () => {
    let server: TestServer;
    let installed: Installed;
    let cardId: string;
    let keyCardId: string;
    const webLogin = async (account: string, password: string) =>
      (await call<{ loginInfo: { token: string } }>(server, 'POST', apiPaths.webLogin, { user: { account, password: sm3Hex(password), tenantCode: '1001' } })).body.data.loginInfo.token;
    /** A fresh session of sysadmin: taking his own card out of use ends all of his sessions. */
    const admin = () => webLogin('sysadmin', 'Sysadmin#2026');
    const state = async () => (await server.handle.db.selectFrom('admin_login_cards').select('state').where('id', '=', cardId).executeTakeFirstOrThrow()).state;
    beforeAll(async () => {
      server = await startServer(kind, { env: gateEnv });
      installed = await install(server);
      const data = await call<{ cards: { id: string }[] }>(server, 'POST', apiPaths.getSuperAdminIssueData, undefined, { token: installed.masterToken });
      cardId = data.body.data.cards[0]!.id;
      keyCardId = (await server.handle.db.selectFrom('system_key_cards').select('id').executeTakeFirstOrThrow()).id;
    });
    afterAll(async () => {
      await server?.close();
    });

    it('only a system administrator or a master-card swipe manages cards', async () => {
      const bare = await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] });
      expect([bare.status, bare.body.code]).toEqual([401, codes.masterCardTokenInvalid]);
      const staff = await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: await webLogin('staff', 'Staff#2026') });
      expect([staff.status, staff.body.code]).toEqual([403, codes.noPermission]);
      // an expired master-card token (or session) is no token at all: the screens go to the mother-card swipe
      const expired = await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: 'x'.repeat(43) });
      expect([expired.status, expired.body.code]).toEqual([401, codes.masterCardTokenInvalid]);
      expect(await state()).toBe(20);
    });

    it('loss ends the holder’s card sessions at once and refuses the card; unloss lets it sign in again', async () => {
      const cardSession = (await cardLogin(server, installed.adminCardImage)).body.data.token;
      const passwordSession = await admin();
      expect((await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: passwordSession, language: 'en-US' })).body.code).toBe(0);
      // every session of the card's holder ends: the one signed in with the card, and his others
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: cardSession })).status).toBe(401);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: passwordSession })).status).toBe(401);
      expect((await cardLogin(server, installed.adminCardImage)).body.code).toBe(codes.cardLost);
      const again = await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: installed.masterToken, language: 'en-US' });
      expect(again.body).toMatchObject({ code: codes.cardActionNotAllowed, msg: `Card ${adminCardFixedNo} is lost: this action is not allowed for it (nothing was changed)` });
      expect((await call(server, 'POST', apiPaths.adminCardUnLoss, { ids: [cardId] }, { token: installed.masterToken })).body.code).toBe(0);
      expect((await cardLogin(server, installed.adminCardImage)).body.code).toBe(0);
      const log = await server.handle.db.selectFrom('operation_logs').selectAll().where('action', '=', 'card-state').execute();
      expect(log.map((row) => [row.account, row.detail])).toEqual([
        ['sysadmin', `loss administrator card ${adminCardFixedNo} of sysadmin`],
        ['master-card', `unLoss administrator card ${adminCardFixedNo} of sysadmin`],
      ]);
    });

    it('freeze and unfreeze; damage takes one card at a time', async () => {
      expect((await call(server, 'POST', apiPaths.adminCardUnFreeze, { ids: [cardId] }, { token: await admin() })).body.code).toBe(codes.cardActionNotAllowed);
      expect((await call(server, 'POST', apiPaths.adminCardFreeze, { ids: [cardId] }, { token: await admin() })).body.code).toBe(0);
      expect((await cardLogin(server, installed.adminCardImage)).body.code).toBe(codes.cardFrozen);
      expect((await call(server, 'POST', apiPaths.adminCardUnFreeze, { ids: [cardId, cardId] }, { token: await admin() })).body.code).toBe(0);
      expect(await state()).toBe(20);
      expect((await call(server, 'POST', apiPaths.adminCardDamage, { ids: [cardId, 'another'] }, { token: await admin() })).status).toBe(400);
    });

    it('damage of two cards at once is refused in the caller’s language', async () => {
      // found by the route fuzzer: the refusal was English whatever the caller's language
      for (const language of ['zh-CN', 'zh-MO', 'en-US'] as const) {
        const reply = await call(server, 'POST', apiPaths.adminCardDamage, { ids: [cardId, 'another'] }, { token: installed.masterToken, language });
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({ code: codes.badRequest, msg: `${codeMessage(codes.badRequest, language)}: body/ids must name exactly one card for this action`, data: null });
      }
      expect(await state()).toBe(20);
    });

    it('all or nothing, in the tenant only, and one of two administrators at once wins', async () => {
      expect((await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId, 'no-such-card'] }, { token: await admin() })).body.code).toBe(codes.notFound);
      expect((await call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: installed.masterToken, headers: { tenantcode: '1002' } })).body.code).toBe(codes.notFound);
      expect(await state()).toBe(20);
      // two operators, each with a mother-card swipe of their own. (Not the card holder's own session: when the
      // other action wins first it ends his sessions, and his call is then refused as signed out, 221, found by CI.)
      const otherOperator = (await swipeMother(server, installed.motherImage)).body.data.token;
      const [first, second] = await Promise.all([
        call(server, 'POST', apiPaths.adminCardLoss, { ids: [cardId] }, { token: otherOperator }),
        call(server, 'POST', apiPaths.adminCardFreeze, { ids: [cardId] }, { token: installed.masterToken }),
      ]);
      expect([first.body.code, second.body.code].sort()).toEqual([0, codes.cardActionNotAllowed]);
      expect([40, 80]).toContain(await state());
    });

    it('the tables: option lists in the caller’s language, search with each filter, order and paging, seek', async () => {
      const token = installed.masterToken;
      const states = await call<{ value: number; label: string }[]>(server, 'POST', apiPaths.adminCardStateList, undefined, { token, language: 'zh-MO' });
      expect(states.body.data).toContainEqual({ value: 40, label: '已掛失' });
      // the names a list shows: capitalised as the table shows them (issue 25, item 16), and the kind by its name
      const englishStates = await call<{ value: number; label: string }[]>(server, 'POST', apiPaths.keyCardStateList, undefined, { token, language: 'en-US' });
      expect(englishStates.body.data).toContainEqual({ value: 40, label: 'Lost' });
      expect(englishStates.body.data).toContainEqual({ value: 20, label: 'In use' });
      expect((await call(server, 'POST', apiPaths.keyCardKindList, undefined, { token })).body.data).toEqual([{ value: 11, label: '管理卡' }]);
      expect((await call(server, 'POST', apiPaths.adminCardKindList, undefined, { token, language: 'en-US' })).body.data).toEqual([{ value: 11, label: 'Management card' }]);
      const admins = await call<{ id: string; no: string }[]>(server, 'POST', apiPaths.adminCardGetSystemAdmin, undefined, { token });
      const sysadminId = admins.body.data.find((a) => a.no === 'sysadmin')!.id;
      const search = (body: object, path: string = apiPaths.adminCardSearch) => call<{ fixedNo: string; oprtName: string; num: number; state: number }[]>(server, 'POST', path, { page: { index: 1, size: 15 }, ...body }, { token });
      const all = await search({});
      expect(all.body).toMatchObject({ code: 0, recordCount: 1, data: [{ fixedNo: adminCardFixedNo, oprtNo: 'sysadmin', oprtName: 'System Administrator', oprtId: sysadminId, kindNum: 11 }] });
      expect(JSON.stringify(all.body.data)).not.toMatch(/pwd|hash/i);
      const current = all.body.data[0]!.state;
      expect((await search({ filters: [{ field: 'likeSearch', value: adminCardFixedNo.slice(2, 6).toLowerCase() }] })).body.recordCount).toBe(1);
      expect((await search({ filters: [{ field: 'likeSearch', value: 'sysad' }] })).body.recordCount).toBe(1);
      expect((await search({ filters: [{ field: 'likeSearch', value: '100%' }] })).body.recordCount).toBe(0);
      expect((await search({ filters: [{ field: 'OprtId', value: sysadminId }, { field: 'states', value: JSON.stringify([current]) }, { field: 'cardKinds', value: '[11]' }] })).body.recordCount).toBe(1);
      expect((await search({ filters: [{ field: 'states', value: '[10,30]' }] })).body.recordCount).toBe(0);
      const notAList = await search({ filters: [{ field: 'states', value: 'lost' }] });
      expect(notAList.status).toBe(400);
      expect(notAList.body.msg).toBe(`${codeMessage(codes.badRequest, 'zh-CN')}: body/filters states must be a JSON array of whole numbers, such as [20,40]`);
      expect((await search({ page: { index: 2, size: 15 } })).body).toMatchObject({ recordCount: 1, data: [] });
      expect((await search({ page: { index: 1, size: 501 } })).status).toBe(400);
      // another tenant sees none of them
      const other = await call(server, 'POST', apiPaths.adminCardSearch, { page: { index: 1, size: 15 } }, { token, headers: { tenantcode: '1002' } });
      expect(other.body).toMatchObject({ recordCount: 0, data: [] });
      expect((await call(server, 'POST', apiPaths.adminCardSeek, { fixedNo: adminCardFixedNo.toLowerCase() }, { token })).body.data).toMatchObject({ fixedNo: adminCardFixedNo });
      expect((await call(server, 'POST', apiPaths.adminCardSeek, { fixedNo: 'ABCDEF01' }, { token })).body.data).toBeNull();
      const keys = await search({ orderBys: [{ field: 'fixedNo', isAsc: true }] }, apiPaths.keyCardSearch);
      expect(keys.body).toMatchObject({ recordCount: 1, data: [{ fixedNo: keyCardFixedNo, kindNum: 11 }] });
      expect((await call(server, 'POST', apiPaths.keyCardSeek, { fixedNo: keyCardFixedNo }, { token })).body.data).toMatchObject({ id: keyCardId });
    });

    it('a system key card: loss, unloss, freeze, unfreeze, damage by id; nothing comes back from damaged', async () => {
      for (const [path, code] of [
        [apiPaths.keyCardLoss, 0],
        [apiPaths.keyCardLoss, codes.cardActionNotAllowed],
        [apiPaths.keyCardUnLoss, 0],
        [apiPaths.keyCardFreeze, 0],
        [apiPaths.keyCardUnFreeze, 0],
        [apiPaths.keyCardDamage, 0],
        [apiPaths.keyCardUnLoss, codes.cardActionNotAllowed],
      ] as const) {
        expect((await call(server, 'POST', path, { id: keyCardId }, { token: await admin() })).body.code, path).toBe(code);
      }
      expect((await call<GateSetupState>(server, 'POST', apiPaths.gmIsSystemInit)).body.data.isIssueSecretCard).toBe(false);
    });
  });

  it('outside gate deployments every card call answers notGateSystem, in the reply its route describes', async () => {
    const server = await startServer(kind);
    try {
      for (const path of [apiPaths.gmIsSystemInit, apiPaths.addGmInitData, apiPaths.gmMasterCardVerify, apiPaths.systemKeyCardAdd, apiPaths.cardLogin, apiPaths.getSysKeyData, apiPaths.getSysKeyChallenge, apiPaths.trustedIssuerList, apiPaths.verifyGmPassword]) {
        const reply = await call(server, 'POST', path, {}, { language: 'en-US' });
        expect(reply.body, path).toEqual({ code: codes.notGateSystem, msg: codeMessage(codes.notGateSystem, 'en-US'), data: null });
        // found by the route fuzzer: a business failure answered with HTTP 200 broke the route's 200 reply schema
        const route = server.app.routeList.find((r) => r.method === 'POST' && r.url === path);
        const described = (route?.schema?.response as Record<number, Parameters<typeof Schema.Check>[0]> | undefined)?.[reply.status];
        expect(described, path).toBeDefined();
        expect(Schema.Check(described!, reply.body), path).toBe(true);
      }
    } finally {
      await server.close();
    }
  });
});
