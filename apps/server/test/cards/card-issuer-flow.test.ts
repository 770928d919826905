import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sm2 } from 'sm-crypto-v2';
import { sm3Hex } from '@campus/card-crypto';
import { apiPaths, cardIssuerPaths, codes, loginTypes, readerCodes } from '@campus/contracts';
import type { GateSetupState, PasswordComplexity, PreparedCardWrite, UserInfo } from '@campus/contracts';
import { buildIssuer } from '../../../card-issuer/src/app.ts';
import { loadIssuerConfig } from '../../../card-issuer/src/config.ts';
import { demoCardNumbers, ensureDemoCards } from '../../../card-issuer/src/readers/demo-cards.ts';
import { VirtualReader, virtualReaderName } from '../../../card-issuer/src/readers/virtual-reader.ts';
import { call, databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/**
 * The contract between the server and the real card issuer with its virtual reader: the whole gate set-up
 * and card sign-in, call by call as the shell makes them (docs/cards.md "The server's card calls").
 */
const customerPassword = 'Customer#2026';
const cardPassword = 'Card#2026a';
const deviceToken = 'flow-test-device-token-0001';
const [keyCardNo, adminCardNo] = demoCardNumbers.blanks;

interface IssuerReply<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

describe.each(databases)('the gate set-up through the card issuer (%s)', (kind) => {
  let server: TestServer;
  let issuer: FastifyInstance;
  let issuerUrl: string;
  let reader: VirtualReader;
  let issuerDir: string;

  beforeAll(async () => {
    server = await startServer(kind, { env: { MJ_SYSTEM: '21' } });
    issuerDir = tempDir('campus-issuer-');
    reader = new VirtualReader(issuerDir);
    ensureDemoCards(reader, { customerNo: '10001', customerPwd: customerPassword });
    const config = loadIssuerConfig({ CARD_ISSUER_DATA_DIR: issuerDir, CARD_ISSUER_ALLOWED_ORIGINS: server.url });
    issuer = await buildIssuer({ config, reader, readerName: virtualReaderName });
    await issuer.listen({ host: '127.0.0.1', port: 0 });
    const address = issuer.server.address();
    issuerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await issuer?.close();
    await server?.close();
    if (issuerDir) fs.rmSync(issuerDir, { recursive: true, force: true });
  });

  /** A call of the shell to the issuer, from the shell's origin. */
  async function device<T = Record<string, unknown>>(urlPath: string, body: unknown = {}): Promise<IssuerReply<T>> {
    const res = await fetch(`${issuerUrl}${urlPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', carddevicetoken: deviceToken, origin: server.url, language: 'en-US' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as IssuerReply<T>;
  }
  /** GetSysKeyData as the shell sends it: a server challenge, signed by the issuer (SignKeyChallenge), for its public key. */
  async function fetchKeyThroughIssuer(token?: string) {
    const challenge = await call<{ challenge: string }>(server, 'POST', apiPaths.getSysKeyChallenge, { devicePublicKey });
    const signed = await device<{ challenge: string; hostName: string; signature: string }>(cardIssuerPaths.signKeyChallenge, { challenge: challenge.body.data.challenge });
    expect(signed.code).toBe(0);
    return call<{ sysKeyData: string }>(server, 'POST', apiPaths.getSysKeyData, { devicePublicKey, ...signed.data }, token === undefined ? {} : { token });
  }


  async function sealed(password: string): Promise<string> {
    const complexity = await call<PasswordComplexity>(server, 'GET', apiPaths.passwordComplexity);
    return sm2.doEncrypt(password, complexity.body.data.sealKey, 1);
  }

  let devicePublicKey: string;
  let masterToken: string;

  it('initialises the system with the mother card on the reader (a wrong customer password first, an interrupted write on the way)', async () => {
    const pairing = await device<{ devicePublicKey: string }>(cardIssuerPaths.addIdentity, { cardDeviceToken: deviceToken });
    expect(pairing.code).toBe(0);
    devicePublicKey = pairing.data.devicePublicKey;
    expect((await device(cardIssuerPaths.switchIdentity, { cardDeviceToken: deviceToken })).code).toBe(0);

    const mother = await device<{ fixedNo: string; image: string; customerNo: string }>(cardIssuerPaths.readMasterCard);
    expect(mother.data).toMatchObject({ fixedNo: demoCardNumbers.mother, customerNo: '10001' });
    const wrong = await call(server, 'POST', apiPaths.addGmInitData, { customerNo: '10001', customerPwd: sm3Hex('Wrong#2026'), fixedNo: mother.data.fixedNo, image: mother.data.image });
    expect(wrong.body.code).toBe(codes.customerPasswordWrong);

    const prepared = await call<PreparedCardWrite>(server, 'POST', apiPaths.addGmInitData, { customerNo: '10001', customerPwd: sm3Hex(customerPassword), fixedNo: mother.data.fixedNo, image: mother.data.image });
    expect(prepared.body.code).toBe(0);
    reader.failNext('write', readerCodes.writeInterruptedWhileCommitting);
    const write = { fixedNo: prepared.body.data.fixedNo, image: prepared.body.data.image, expect: 'mother' };
    expect((await device(cardIssuerPaths.writeCard, write)).code).toBe(readerCodes.writeInterruptedWhileCommitting);
    expect((await device(cardIssuerPaths.writeCard, write)).code).toBe(0);
    const readBack = await device<{ image: string }>(cardIssuerPaths.readMasterCard);
    const confirmed = await call<GateSetupState>(server, 'POST', apiPaths.gmSetSystemInit, { prepareId: prepared.body.data.prepareId, isSuccess: true, image: readBack.data.image });
    expect(confirmed.body.data).toMatchObject({ isInit: true, hasSecret: true });
  });

  it('swipes the mother card for a master-card token and loads the system key into the issuer', async () => {
    reader.failNext('read', readerCodes.noCard);
    expect((await device(cardIssuerPaths.readMasterCard)).code).toBe(readerCodes.noCard);
    const read = await device<{ sysKeyCode: string; customerNo: string; customerPwd: string }>(cardIssuerPaths.readMasterCard);
    const verified = await call<{ token: string }>(server, 'POST', apiPaths.gmMasterCardVerify, { sysKeyCode: read.data.sysKeyCode, customerNo: read.data.customerNo, customerPwd: read.data.customerPwd, devicePublicKey });
    expect(verified.body.code).toBe(0);
    masterToken = verified.body.data.token;
    const keyData = await fetchKeyThroughIssuer(masterToken);
    expect((await device(cardIssuerPaths.init, { sysKeyData: keyData.body.data.sysKeyData })).code).toBe(0);
  });

  it('issues the system key card and the super administrator card onto blank cards', async () => {
    reader.place(keyCardNo!);
    const blank = await device<{ fixedNo: string }>(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 });
    expect(blank.data.fixedNo).toBe(keyCardNo);
    const key = await call<PreparedCardWrite>(server, 'POST', apiPaths.systemKeyCardAdd, { fixedNo: blank.data.fixedNo }, { token: masterToken });
    expect((await device(cardIssuerPaths.issueSystemKeyCard, { fixedNo: key.body.data.fixedNo, image: key.body.data.image })).code).toBe(0);
    expect((await call(server, 'POST', apiPaths.gmSetIssueSecretCard, { prepareId: key.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
    // the issued key card is no blank card any more
    expect((await device(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).code).toBe(readerCodes.cardAlreadyIssued);

    reader.place(adminCardNo!);
    const adminBlank = await device<{ fixedNo: string }>(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 });
    const admin = await call<PreparedCardWrite>(server, 'POST', apiPaths.issueSuperAdmin, { fixedNo: adminBlank.data.fixedNo, oprtPwd: sm3Hex(cardPassword), sealedPwd: await sealed(cardPassword) }, { token: masterToken });
    expect(admin.body.code).toBe(0);
    expect((await device(cardIssuerPaths.issueSuperAdminCard, { fixedNo: admin.body.data.fixedNo, image: admin.body.data.image })).code).toBe(0);
    expect((await call(server, 'POST', apiPaths.gmSetIssueSuperAdminCard, { prepareId: admin.body.data.prepareId, isSuccess: true }, { token: masterToken })).body.code).toBe(0);
    expect((await call<GateSetupState>(server, 'POST', apiPaths.gmIsSystemInit)).body.data).toMatchObject({ isInit: true, hasSecret: true, isIssueSecretCard: true, isIssueSuperAdminCard: true });
  });

  it('signs in by swipe (the issuer relays the card to the server), alone and with the card password', async () => {
    expect((await device(cardIssuerPaths.setGateway, { gatewayAddr: server.url })).code).toBe(0);
    const alone = await device<{ token: string; tenantCode: string }>(cardIssuerPaths.login, { cardKind: 11 });
    expect(alone).toMatchObject({ code: 0, data: { tenantCode: '1001' } });
    const info = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token: alone.data.token });
    expect(info.body.data).toMatchObject({ code: 'sysadmin', loginType: loginTypes.card });
    const wrong = await device(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: sm3Hex('Wrong#2026') });
    expect(wrong.code).toBe(codes.accountOrPasswordWrong);
    expect(wrong.msg).toBe('Wrong account or password');
    const right = await device<{ token: string }>(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: sm3Hex(cardPassword) });
    expect(right.code).toBe(0);
  });

  it('a restarted issuer has lost the key: the gateway check fails with 990207 until the trusted issuer gets it again', async () => {
    await issuer.close();
    const config = loadIssuerConfig({ CARD_ISSUER_DATA_DIR: issuerDir, CARD_ISSUER_ALLOWED_ORIGINS: server.url });
    issuer = await buildIssuer({ config, reader, readerName: virtualReaderName });
    await issuer.listen({ host: '127.0.0.1', port: 0 });
    const address = issuer.server.address();
    issuerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    expect((await device(cardIssuerPaths.addIdentity, { cardDeviceToken: deviceToken })).code).toBe(0);
    expect((await device(cardIssuerPaths.setGateway, { gatewayAddr: server.url })).code).toBe(readerCodes.noSystemKey);
    // the same issuer (same device key in its data folder) is trusted: no token needed
    const keyData = await fetchKeyThroughIssuer();
    expect(keyData.body.code).toBe(0);
    expect((await device(cardIssuerPaths.init, { sysKeyData: keyData.body.data.sysKeyData })).code).toBe(0);
    expect((await device(cardIssuerPaths.setGateway, { gatewayAddr: server.url })).code).toBe(0);
    expect((await device(cardIssuerPaths.login, { cardKind: 11 })).code).toBe(0);
  });

  it('changes the card password on the card; a copy of the card onto another card does not open', async () => {
    const token = (await device<{ token: string }>(cardIssuerPaths.login, { cardKind: 11, oprtPwd: sm3Hex(cardPassword) })).data.token;
    const info = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect((await call(server, 'POST', apiPaths.verifyGmPassword, { oprtPwd: sm3Hex(cardPassword) }, { token })).body.code).toBe(0);
    const onReader = await device<{ fixedNo: string }>(cardIssuerPaths.checkOprtLoginCardCanChangePwd, { cardKind: 11, oprtNo: 'sysadmin' });
    expect(onReader.code).toBe(0);
    const oldImage = fs.readFileSync(path.join(reader.folder, 'cards', `${adminCardNo}.card`));
    const next = 'Card#2027b';
    const prepared = await call<PreparedCardWrite>(
      server,
      'POST',
      apiPaths.changeGmPassword,
      { id: info.body.data.cardId, kindNum: 11, fixedNo: onReader.data.fixedNo, oprtPwd: sm3Hex(next), sealedPwd: await sealed(next), oprtOldPwd: sm3Hex(cardPassword) },
      { token },
    );
    expect(prepared.body.code).toBe(0);
    expect((await device(cardIssuerPaths.changePwdOprtLoginCard, { fixedNo: prepared.body.data.fixedNo, image: prepared.body.data.image })).code).toBe(0);
    expect((await call(server, 'POST', apiPaths.changeGmPassword, { prepareId: prepared.body.data.prepareId, isSuccess: true }, { token })).body.code).toBe(0);
    expect((await device(cardIssuerPaths.login, { cardKind: 11, oprtPwd: sm3Hex(next) })).code).toBe(0);
    // a copy of the card made before the change
    reader.addCard(oldImage, 'C0FFEE01');
    reader.place('C0FFEE01');
    expect((await device(cardIssuerPaths.login, { cardKind: 11 })).code).toBe(readerCodes.keyMismatch);
  });
});
