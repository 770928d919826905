// Card sign-in (issue 13): the card issuer reads the administrator card on the virtual reader and relays it to
// the server, which opens it under the system key and checks its row, beside password sign-in to the same server
// in the same run. A fresh gate deployment is set up first, call by call as the shell makes the calls.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sm2, sm3 } from 'sm-crypto-v2';
import { root } from './servers.mjs';
import { timeCalls } from './timing.mjs';

const digest = (text) => sm3(new TextEncoder().encode(text)).toLowerCase();

async function until(url, child, what) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer on ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  return exited;
}

export async function measureCardSignIn({ serverPort, issuerPort, calls = 40 }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campus-bench-gate-'));
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  const issuerUrl = `http://127.0.0.1:${issuerPort}`;
  const issuer = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/card-issuer/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CARD_ISSUER_PORT: String(issuerPort), CARD_ISSUER_DATA_DIR: path.join(dataDir, 'issuer'), CARD_ISSUER_ALLOWED_ORIGINS: serverUrl, CARD_ISSUER_DEMO_MOTHER: '10001:Customer#2026' },
  });
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: path.join(dataDir, 'server'), HOST: '127.0.0.1', PORT: String(serverPort), IMAGE_CODE: 'off', NODE_ENV: 'development', MJ_SYSTEM: '21', CARD_ISSUER_URL: issuerUrl, RATE_LIMIT_PER_MINUTE: '100000' },
  });
  try {
    await until(`${issuerUrl}/reader/api/status`, issuer, 'the card issuer');
    await until(`${serverUrl}/healthz`, server, 'the gate server');
    const token = 'bench-card-sign-in-0001';
    const call = async (base, p, body, headers = {}) => {
      const res = await fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', carddevicetoken: token, origin: serverUrl, ...headers }, body: JSON.stringify(body ?? {}) });
      const envelope = await res.json();
      if (envelope.code % 10 !== 0) throw new Error(`${p} answered ${envelope.code} ${envelope.msg}`);
      return envelope.data;
    };
    const device = (p, body) => call(issuerUrl, p, body);
    const api = (p, body, headers) => call(serverUrl, p, body, headers);

    // the set-up, as the wizard makes it
    const { devicePublicKey } = await device('/api/AuthDevice/AddIdentity', { cardDeviceToken: token });
    const mother = await device('/api/GMSystemCard/ReadMasterCard');
    const init = await api('/qy/api/System/AddGMInitData', { customerNo: '10001', customerPwd: digest('Customer#2026'), fixedNo: mother.fixedNo, image: mother.image });
    await device('/api/GMCard', { fixedNo: init.fixedNo, image: init.image, expect: 'mother' });
    const back = await device('/api/GMSystemCard/ReadMasterCard');
    await api('/iot-login/api/v1.0/GMAccount/SetSystemInit', { prepareId: init.prepareId, isSuccess: true, image: back.image });
    const master = await api('/iot-login/api/v1.0/GMAccount/MasterCardVerify', { sysKeyCode: back.sysKeyCode, customerNo: back.customerNo, customerPwd: back.customerPwd, devicePublicKey });
    const withMaster = { token: master.token };
    // the issuer proves its device key (issue 46 item 1): the server's one-time challenge, signed by the issuer
    const { challenge } = await api('/qy/api/SystemUsedCardKind/GetSysKeyChallenge', { devicePublicKey });
    const signed = await device('/api/AuthDevice/SignKeyChallenge', { challenge });
    const { sysKeyData } = await api('/qy/api/SystemUsedCardKind/GetSysKeyData', { devicePublicKey, ...signed }, withMaster);
    await device('/api/GMSystemCard/Init', { sysKeyData });
    await fetch(`${issuerUrl}/reader/api/place`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fixedNo: 'DE000002' }) });
    const keyBlank = await device('/api/GMSystemCard/CheckSystemKeyCardCanIssue', { cardKind: 11 });
    const key = await api('/qy/api/SystemKeyCard/Add', { fixedNo: keyBlank.fixedNo }, withMaster);
    await device('/api/GMSystemCard/IssueSystemKeyCard', { fixedNo: key.fixedNo, image: key.image });
    await api('/iot-login/api/v1.0/GMAccount/SetIssueSecretCard', { prepareId: key.prepareId, isSuccess: true }, withMaster);
    await fetch(`${issuerUrl}/reader/api/place`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fixedNo: 'DE000003' }) });
    const adminBlank = await device('/api/GMSystemCard/CheckOprtLoginCardCanIssue', { cardKind: 11 });
    const complexity = await (await fetch(`${serverUrl}/system/api/System/GetLoginPassordComplexity`)).json();
    const cardPassword = 'Card#2026a';
    const admin = await api('/qy/api/OprtLoginCard/IssueSuperAdmin', { fixedNo: adminBlank.fixedNo, oprtPwd: digest(cardPassword), sealedPwd: sm2.doEncrypt(cardPassword, complexity.data.sealKey, 1) }, withMaster);
    await device('/api/GMSystemCard/IssueSuperAdminCard', { fixedNo: admin.fixedNo, image: admin.image });
    await api('/iot-login/api/v1.0/GMAccount/SetIssueSuperAdminCard', { prepareId: admin.prepareId, isSuccess: true }, withMaster);
    await device('/api/GMSystemCard/SetGateWay', { gatewayAddr: serverUrl });

    const cardWithPassword = () => device('/api/GMSystemCard/Login', { cardKind: 11, oprtNo: 'sysadmin', oprtPwd: digest(cardPassword) });
    const cardAlone = () => device('/api/GMSystemCard/Login', { cardKind: 11 });
    const password = () => api('/user/api/v1.0/account/weblogin', { user: { account: 'sysadmin', password: digest('Sysadmin#2026'), tenantCode: '1001' } });
    for (let i = 0; i < 5; i++) {
      await cardWithPassword();
      await cardAlone();
      await password();
    }
    // alternated in rounds so that both see the same machine
    const rounds = { card: [], alone: [], password: [] };
    for (let r = 0; r < 2; r++) {
      rounds.card.push(await timeCalls(calls / 2, cardWithPassword));
      rounds.alone.push(await timeCalls(calls / 2, cardAlone));
      rounds.password.push(await timeCalls(calls / 2, password));
    }
    const best = (list) => list.sort((a, b) => a.p50 - b.p50)[0];
    return { calls, card: best(rounds.card), alone: best(rounds.alone), password: best(rounds.password) };
  } finally {
    await stop(server);
    await stop(issuer);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
