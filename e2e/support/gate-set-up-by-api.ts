import { sm2, sm3 } from 'sm-crypto-v2';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import type { GateDeployment } from './gate-deployment.ts';
import { asSetUp } from './set-up-time.ts';

const digest = (text: string) => sm3(text).toLowerCase();

/**
 * The whole gate set-up made call by call, as the wizard makes them (its own browser test is gate-setup.spec.ts):
 * the system initialised with mother card DE000001, key card DE000002, the super administrator's card DE000003
 * with `cardPassword`. Leaves the mother card on the reader. Counts as set-up time.
 */
export function setUpGateByApi(gate: GateDeployment, cardPassword: string): Promise<void> {
  return asSetUp(async () => {
    const token = `e2e-api-set-up-${Date.now()}`;
    const call = async <T>(base: string, path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<T> => {
      const reply = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', carddevicetoken: token, origin: gate.server.baseURL, ...headers }, body: JSON.stringify(body) });
      const envelope = (await reply.json()) as { code: number; msg: string; data: T };
      if (envelope.code % 10 !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
      return envelope.data;
    };
    const device = <T>(path: string, body?: unknown) => call<T>(gate.issuerUrl, path, body);
    const api = <T>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>(gate.server.baseURL, path, body, headers);

    const { devicePublicKey } = await device<{ devicePublicKey: string }>(cardIssuerPaths.addIdentity, { cardDeviceToken: token });
    const mother = await device<{ fixedNo: string; image: string }>(cardIssuerPaths.readMasterCard);
    const init = await api<{ prepareId: string; fixedNo: string; image: string }>(apiPaths.addGmInitData, { customerNo: '10001', customerPwd: digest('Customer#2026'), fixedNo: mother.fixedNo, image: mother.image });
    await device(cardIssuerPaths.writeCard, { fixedNo: init.fixedNo, image: init.image, expect: 'mother' });
    const back = await device<{ image: string; sysKeyCode: string; customerNo: string; customerPwd: string }>(cardIssuerPaths.readMasterCard);
    await api(apiPaths.gmSetSystemInit, { prepareId: init.prepareId, isSuccess: true, image: back.image });
    const master = await api<{ token: string }>(apiPaths.gmMasterCardVerify, { sysKeyCode: back.sysKeyCode, customerNo: back.customerNo, customerPwd: back.customerPwd, devicePublicKey });
    const withMaster = { token: master.token };
    // the issuer proves its device key: the server's one-time challenge, signed by the issuer (issue 46 item 1); a
    // server of before it (the upgrade test makes its data on one) has no challenge and takes the public key alone
    const asked = await fetch(`${gate.server.baseURL}${apiPaths.getSysKeyChallenge}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: gate.server.baseURL }, body: JSON.stringify({ devicePublicKey }) });
    let signed = {};
    if (asked.status !== 404) {
      const reply = (await asked.json()) as { code: number; msg: string; data: { challenge: string } };
      if (reply.code % 10 !== 0) throw new Error(`${apiPaths.getSysKeyChallenge}: ${reply.code} ${reply.msg}`);
      signed = await device<{ challenge: string; hostName: string; signature: string }>(cardIssuerPaths.signKeyChallenge, { challenge: reply.data.challenge });
    }
    const { sysKeyData } = await api<{ sysKeyData: string }>(apiPaths.getSysKeyData, { devicePublicKey, ...signed }, withMaster);
    await device(cardIssuerPaths.init, { sysKeyData });

    await gate.reader.place('DE000002');
    const keyBlank = await device<{ fixedNo: string }>(cardIssuerPaths.checkSystemKeyCardCanIssue, { cardKind: 11 });
    const key = await api<{ prepareId: string; fixedNo: string; image: string }>(apiPaths.systemKeyCardAdd, { fixedNo: keyBlank.fixedNo }, withMaster);
    await device(cardIssuerPaths.issueSystemKeyCard, { fixedNo: key.fixedNo, image: key.image });
    await api(apiPaths.gmSetIssueSecretCard, { prepareId: key.prepareId, isSuccess: true }, withMaster);

    await gate.reader.place('DE000003');
    const adminBlank = await device<{ fixedNo: string }>(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 });
    const complexity = await (await fetch(`${gate.server.baseURL}${apiPaths.passwordComplexity}`)).json() as { data: { sealKey: string } };
    const admin = await api<{ prepareId: string; fixedNo: string; image: string }>(
      apiPaths.issueSuperAdmin,
      { fixedNo: adminBlank.fixedNo, oprtPwd: digest(cardPassword), sealedPwd: sm2.doEncrypt(cardPassword, complexity.data.sealKey, 1) },
      withMaster,
    );
    await device(cardIssuerPaths.issueSuperAdminCard, { fixedNo: admin.fixedNo, image: admin.image });
    await api(apiPaths.gmSetIssueSuperAdminCard, { prepareId: admin.prepareId, isSuccess: true }, withMaster);
    await gate.reader.place('DE000001');
  });
}
