import net from 'node:net';
import { sm2, sm3 } from 'sm-crypto-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, cardIssuerPaths, codes, loginTypes, readerCodes } from '@campus/contracts';
import type { DownloadCard, DownloadPlatform } from './download-platform.ts';
import { startGateServer } from './gate-server.ts';
import type { GateServer } from './gate-server.ts';
import { panelStatus } from './issuer-panel.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

const digest = (text: string) => sm3(text).toLowerCase();
const customerPassword = 'Customer#2026';
const cardPassword = 'Card#2026a';

/**
 * One operator's PC, from a blank card to card sign-ins, through a card issuer download exactly as built: the
 * vendor formats a card and writes the customer's mother card with the download's card command, the gate set-up
 * (initialisation, system key card, super administrator card) goes call by call as the shell makes it
 * (e2e/support/gate-set-up-by-api.ts), each card is pulled off once in the middle of its write, the administrator
 * signs in with the card alone and with its card password, and the smart-card service stops and starts again under
 * the running issuer. `open` makes the platform (download-platform.ts); the server is the product's, from the
 * source, on a fresh SQLite database. Where the platform's lab cannot run, the suite is skipped with `problem` as
 * its name.
 */
export function describeDownloadScenario(title: string, problem: string | null, open: () => Promise<DownloadPlatform>, options: { sealedDeviceKey?: boolean } = {}): void {
  describe.skipIf(problem !== null)(`${title}${problem ? ` (${problem})` : ''}`, () => {
    let platform: DownloadPlatform;
    let server: GateServer;
    let issuerUrl: string;
    let issuerPort: number;
    const token = `download-test-${process.pid}-${Date.now()}`;
    let devicePublicKey: string;
    let masterToken: string;
    let motherCard: DownloadCard;
    let adminCard: DownloadCard;
    const started = Date.now();

    const post = async <T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> => {
      const reply = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', carddevicetoken: token, origin: server.origin, language: 'en-US', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      return (await reply.json()) as Envelope<T>;
    };
    /** A call to the issuer: its envelope, as the shell gets it. */
    const device = <T = Record<string, unknown>>(path: string, body: unknown = {}) => post<T>(`${issuerUrl}${path}`, body);
    const deviceOk = async <T = Record<string, unknown>>(path: string, body: unknown = {}): Promise<T> => {
      const reply = await device<T>(path, body);
      if (reply.code % 10 !== 0) throw new Error(`issuer ${path}: ${reply.code} ${reply.msg}\nissuer log: ${platform.issuerLog()}`);
      return reply.data;
    };
    const api = <T = Record<string, unknown>>(path: string, body: unknown = {}, headers: Record<string, string> = {}) => post<T>(`${server.origin}${path}`, body, headers);
    const apiOk = async <T = Record<string, unknown>>(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<T> => {
      const reply = await api<T>(path, body, headers);
      if (reply.code % 10 !== 0) throw new Error(`server ${path}: ${reply.code} ${reply.msg}`);
      return reply.data;
    };
    const withMaster = () => ({ token: masterToken });

    beforeAll(async () => {
      issuerPort = await freePort();
      issuerUrl = `http://127.0.0.1:${issuerPort}`;
      const serverPort = await freePort();
      // the lab first: on a new machine it makes the Wine root (2 minutes of debootstrap on both cores), and a server
      // starting beside that missed its 90 s to answer /healthz (the clean-clone run of stop 55)
      platform = await open();
      server = await startGateServer(serverPort, issuerPort);
      await platform.startIssuer({ port: issuerPort, allowedOrigin: server.origin });
      ({ devicePublicKey } = await deviceOk<{ devicePublicKey: string }>(cardIssuerPaths.addIdentity, { cardDeviceToken: token }));
    }, 600_000);

    afterAll(async () => {
      await Promise.all([platform?.close(), server?.stop()]);
      console.log(`${title}: ${[...(platform?.timings ?? []), `whole suite ${((Date.now() - started) / 1000).toFixed(1)} s`].join(', ')}`);
    }, 60_000);

    it('the issuer from the download lists the lab reader in its panel, with no card on it (990481)', async () => {
      const status = await panelStatus(issuerPort);
      expect(status).toMatchObject({ driver: 'pcsc', problem: null });
      expect(status?.readers).toContainEqual(expect.objectContaining({ name: platform.readerName, card: 'empty' }));
      expect((await device(cardIssuerPaths.readBaseInfo)).code).toBe(readerCodes.noCard);
    });

    it('the download’s card command formats a card that has no data file, then writes the customer’s mother card onto it', async () => {
      motherCard = platform.newCard({ dataSize: 0 });
      await platform.place(motherCard);
      const unformatted = await device(cardIssuerPaths.readBaseInfo);
      expect(unformatted.code).toBe(readerCodes.unknownCard);
      expect(unformatted.msg).toMatch(/no data file 0101/);
      expect(await platform.cardCommand(['pcsc-format'])).toContain('made data file 0101 (544 bytes) on the card');
      expect(await device(cardIssuerPaths.readBaseInfo)).toMatchObject({ code: 0, data: { fixedNo: motherCard.serial, cardClass: 'blank' } });
      expect(await platform.cardCommand(['pcsc-mother', '--customer-no', '10001', '--customer-pwd', customerPassword])).toContain(`wrote mother card ${motherCard.serial} for customer 10001`);
      expect(await device(cardIssuerPaths.readMasterCard)).toMatchObject({ code: 0, data: { fixedNo: motherCard.serial, customerNo: '10001', initialised: false } });
    });

    it('initialises the system with the mother card and issues the system key card; pulled off as the write commits (990322) it holds one whole image, and the retry issues it', async () => {
      const mother = await deviceOk<{ fixedNo: string; image: string }>(cardIssuerPaths.readMasterCard);
      const init = await apiOk<{ prepareId: string; fixedNo: string; image: string }>(apiPaths.addGmInitData, { customerNo: '10001', customerPwd: digest(customerPassword), fixedNo: mother.fixedNo, image: mother.image });
      await deviceOk(cardIssuerPaths.writeCard, { fixedNo: init.fixedNo, image: init.image, expect: 'mother' });
      const back = await deviceOk<{ image: string; sysKeyCode: string; customerNo: string; customerPwd: string; initialised: boolean }>(cardIssuerPaths.readMasterCard);
      expect(back.initialised).toBe(true);
      await apiOk(apiPaths.gmSetSystemInit, { prepareId: init.prepareId, isSuccess: true, image: back.image });
      masterToken = (await apiOk<{ token: string }>(apiPaths.gmMasterCardVerify, { sysKeyCode: back.sysKeyCode, customerNo: back.customerNo, customerPwd: back.customerPwd, devicePublicKey })).token;
      const { challenge } = await apiOk<{ challenge: string }>(apiPaths.getSysKeyChallenge, { devicePublicKey });
      const signed = await deviceOk<{ challenge: string; hostName: string; signature: string }>(cardIssuerPaths.signKeyChallenge, { challenge });
      const { sysKeyData } = await apiOk<{ sysKeyData: string }>(apiPaths.getSysKeyData, { devicePublicKey, ...signed }, withMaster());
      await deviceOk(cardIssuerPaths.init, { sysKeyData });

      const keyCard = platform.newCard();
      // a card image is written in two UPDATE BINARY of 128 bytes, then its slot header: the third one commits
      await platform.place(keyCard, { leaveAtUpdate: 2 });
      const blank = await deviceOk<{ fixedNo: string }>(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 });
      expect(blank.fixedNo).toBe(keyCard.serial);
      const key = await apiOk<{ prepareId: string; fixedNo: string; image: string }>(apiPaths.systemKeyCardAdd, { fixedNo: blank.fixedNo }, withMaster());
      const torn = await device(cardIssuerPaths.issueSystemKeyCard, { fixedNo: key.fixedNo, image: key.image });
      expect(torn.code).toBe(readerCodes.writeInterruptedWhileCommitting);
      await platform.place(keyCard);
      const after = await deviceOk<{ cardClass: string }>(cardIssuerPaths.readBaseInfo);
      expect(['blank', 'systemKey']).toContain(after.cardClass);
      await deviceOk(cardIssuerPaths.issueSystemKeyCard, { fixedNo: key.fixedNo, image: key.image });
      expect(await deviceOk(cardIssuerPaths.readBaseInfo)).toMatchObject({ fixedNo: keyCard.serial, cardClass: 'systemKey' });
      await apiOk(apiPaths.gmSetIssueSecretCard, { prepareId: key.prepareId, isSuccess: true }, withMaster());
    });

    it('issues the super administrator card; pulled off in the middle of its image (990321) it is still blank, and placed again the retry issues it', async () => {
      adminCard = platform.newCard();
      await platform.place(adminCard, { leaveAtUpdate: 1 });
      const blank = await deviceOk<{ fixedNo: string }>(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 });
      const complexity = (await (await fetch(`${server.origin}${apiPaths.passwordComplexity}`)).json()) as Envelope<{ sealKey: string }>;
      const admin = await apiOk<{ prepareId: string; fixedNo: string; image: string }>(
        apiPaths.issueSuperAdmin,
        { fixedNo: blank.fixedNo, oprtPwd: digest(cardPassword), sealedPwd: sm2.doEncrypt(cardPassword, complexity.data.sealKey, 1) },
        withMaster(),
      );
      const torn = await device(cardIssuerPaths.issueSuperAdminCard, { fixedNo: admin.fixedNo, image: admin.image });
      expect(torn.code).toBe(readerCodes.writeInterruptedBeforeChange);
      expect(torn.msg).toMatch(/left the reader/);
      expect((await device(cardIssuerPaths.readBaseInfo)).code).toBe(readerCodes.noCard);
      await platform.place(adminCard);
      expect(await deviceOk(cardIssuerPaths.readBaseInfo)).toMatchObject({ fixedNo: adminCard.serial, cardClass: 'blank' });
      await deviceOk(cardIssuerPaths.issueSuperAdminCard, { fixedNo: admin.fixedNo, image: admin.image });
      expect(await deviceOk(cardIssuerPaths.readOprtLoginCard)).toMatchObject({ fixedNo: adminCard.serial, cardClass: 'adminLogin', oprtNo: 'sysadmin', tenantCode: '1001' });
      await apiOk(apiPaths.gmSetIssueSuperAdminCard, { prepareId: admin.prepareId, isSuccess: true }, withMaster());
    });

    it('signs in with the card alone and with its card password; where the tenant asks for the password, the card alone is refused', async () => {
      await deviceOk(cardIssuerPaths.setGateway, { gatewayAddr: server.origin });
      expect((await apiOk<{ cardLoginMode: string }>(apiPaths.cardLoginSetting)).cardLoginMode).toBe('card-alone');
      const alone = await deviceOk<{ token: string; tenantCode: string }>(cardIssuerPaths.login, { cardKind: 11 });
      expect(alone.tenantCode).toBe('1001');
      const user = (await (await fetch(`${server.origin}${apiPaths.userDetail}`, { headers: { token: alone.token } })).json()) as Envelope<{ code: string; loginType: number }>;
      expect(user.data).toMatchObject({ code: 'sysadmin', loginType: loginTypes.card });
      const withPassword = await deviceOk<{ token: string }>(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest(cardPassword) });
      expect(withPassword.token).not.toBe(alone.token);
      expect((await device(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest('Wrong#2026') })).code).toBe(codes.accountOrPasswordWrong);

      await apiOk(apiPaths.setCardLoginSetting, { cardLoginMode: 'card-and-password' }, { token: withPassword.token });
      const refused = await device(cardIssuerPaths.login, { cardKind: 11 });
      expect(refused).toMatchObject({ code: codes.cardPasswordRequired, msg: expect.stringMatching(/card password/) });
      expect((await device(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest(cardPassword) })).code).toBe(0);
    });

    it('the smart-card service stopped: 990361 while it is down, and the same issuer works again once it is back', async () => {
      await platform.stopService();
      const down = await device(cardIssuerPaths.readOprtLoginCard);
      expect(down.code).toBe(readerCodes.readerNotConnected);
      expect((await panelStatus(issuerPort))?.problem).toEqual(expect.any(String));
      await platform.startService();
      await platform.place(adminCard);
      // the pairing of the first call still holds: the issuer did not restart
      expect(await deviceOk(cardIssuerPaths.readOprtLoginCard)).toMatchObject({ fixedNo: adminCard.serial, cardClass: 'adminLogin' });
      expect((await device(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest(cardPassword) })).code).toBe(0);
      await platform.place(motherCard);
      expect(await deviceOk(cardIssuerPaths.readMasterCard)).toMatchObject({ fixedNo: motherCard.serial, initialised: true });
    });

    if (options.sealedDeviceKey) {
      it('a copy of the issuer’s data folder on another PC gets no system key: its key is new and untrusted, and it cannot sign for the trusted one', async () => {
        const keyFor = async (publicKey: string) => {
          const { challenge } = await apiOk<{ challenge: string }>(apiPaths.getSysKeyChallenge, { devicePublicKey: publicKey });
          const signed = await deviceOk<{ challenge: string; hostName: string; signature: string }>(cardIssuerPaths.signKeyChallenge, { challenge });
          // what a copy has: the issuer's folder, not the operator's session
          return api<{ sysKeyData?: string }>(apiPaths.getSysKeyData, { devicePublicKey: publicKey, ...signed });
        };
        // on its own PC the issuer is trusted: the key comes without a card
        expect((await keyFor(devicePublicKey)).code).toBe(0);
        await platform.restartAsCopyOnAnotherPc!();
        expect(platform.issuerLog()).toMatch(/another PC|sealed/i);
        const copy = (await deviceOk<{ devicePublicKey: string }>(cardIssuerPaths.addIdentity, { cardDeviceToken: token })).devicePublicKey;
        expect(copy).not.toBe(devicePublicKey);
        expect((await keyFor(copy)).code).toBe(codes.readerNotTrusted);
        expect((await keyFor(devicePublicKey)).code).toBe(codes.issuerChallengeInvalid);
        // and the copy's issuer holds no system key for a card operation that needs one
        await platform.place(adminCard);
        expect((await device(cardIssuerPaths.login, { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest(cardPassword) })).code).toBe(readerCodes.noSystemKey);
      });
    }
  });
}
