import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain lab script without type declarations
import * as wineRoot from '../../../scripts/wine-lab/wine-root.mjs';
import { fetchWindowsRuntime, makeWindowsPackage } from './support/windows-package.ts';

const { ensureWineRoot, runInRoot, wineLabProblem } = wineRoot as {
  ensureWineRoot(options?: { log?: (line: string) => void }): string;
  runInRoot(root: string, script: string, options: Record<string, unknown>): { status: number | null; stderr: string };
  wineLabProblem(): string | null;
};

// The Windows download under Wine 10 (the cached Debian 13 root, scripts/wine-lab/wine-root.mjs): node.exe 24 runs
// the service under Wine's own Service Control Manager (services.exe, sc.exe, taskkill.exe), and the issuer seals its
// device key with Wine's crypt32. Each suite runs one script in the root (an overlay: the cached root never changes)
// and asserts on what it left in an output folder. Where the lab cannot run, the suites skip and say why.
const problem = wineLabProblem() ?? fetchWindowsRuntime();
if (problem) console.warn(problem);

const labTimeout = 600_000; // a machine without the cached root makes it first (about 2 minutes)

interface Lab {
  out: string;
  read(name: string): string;
  seconds: number;
}

/** Runs `script` (sh) in the root with the download's folder `pkg` at /opt/pkg and an output folder at /out. */
function runLab(pkg: string, script: string, prepare: (out: string) => void = () => {}): Lab {
  const root = ensureWineRoot({ log: () => {} });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-wine-service-'));
  const out = path.join(work, 'out');
  fs.mkdirSync(out);
  prepare(out);
  const started = Date.now();
  const result = runInRoot(root, `export WINEPREFIX=/opt/wine-prefix WINEDEBUG=-all\n${script}\nwineserver -k\n`, {
    overlay: path.join(work, 'overlay'),
    binds: [
      { from: pkg, to: '/opt/pkg' },
      { from: out, to: '/out' },
    ],
    network: false,
    stdio: 'pipe',
    timeout: 240_000,
  });
  const seconds = (Date.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`the Wine lab script failed (${result.status}): ${String(result.stderr).slice(-2000)}`);
  const read = (name: string) => (fs.existsSync(path.join(out, name)) ? fs.readFileSync(path.join(out, name), 'utf8') : '');
  return { out, read, seconds };
}

/** The download's folder (card-issuer-win-x64 as unzipped) in a new temporary folder. */
async function makePackage(): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-wine-pkg-'));
  await makeWindowsPackage(path.join(work, 'card-issuer-win-x64'));
  return work;
}

// sh helpers of the lab scripts: wait for a line in a file (at most 30 s), the issuer's /healthz (python3 in the root)
const shHelpers = String.raw`
LOG=/opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer/logs/issuer.log
step() { echo "$1 $(date +%s.%N)" >> /out/steps.txt; }
waitfor() { for i in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timed out waiting for $2 in $1" >> /out/steps.txt; return 1; }
count() { grep -c "$2" "$1" 2>/dev/null || true; }
health() { python3 -c "import urllib.request;print(urllib.request.urlopen('http://127.0.0.1:18085/healthz', timeout=5).read().decode())" > /out/$1 2>&1 || true; }
lastpid() { grep -o "$1 (process [0-9]*" $LOG | tail -1 | grep -o '[0-9]*$'; }
query() { wine sc query CampusCardIssuer > /out/$1 2>&1; echo "rc=$?" >> /out/$1; }
`;

describe.skipIf(problem !== null)(`the Windows service of the card issuer under Wine 10${problem ? ` (${problem})` : ''}`, () => {
  let lab: Lab;
  let work: string;

  beforeAll(async () => {
    work = await makePackage();
    // wineserver -p: Wine's own processes (services.exe) stay while no program runs, as Windows' SCM does; without
    // it Wine shuts down between two commands and its next command boots it again, starting auto-start services
    const script = String.raw`
${shHelpers}
cd /opt/pkg
wineserver -p
step start
CARD_ISSUER_ALLOWED_ORIGINS=https://campus.example.com wine cmd /c 'Z:\opt\pkg\install-service.cmd' < /dev/null > /out/install.txt 2>&1; echo "rc=$?" >> /out/install.txt
cp /opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer/settings.txt /out/settings.txt
step installed
query query-installed.txt
waitfor $LOG 'Card issuer: http'; health health-installed.txt
cp $LOG /out/log-installed.txt
CARD_ISSUER_LANG=zh-MO wine cmd /c 'Z:\opt\pkg\install-service.cmd' < /dev/null > /out/install-again.txt 2>&1; echo "rc=$?" >> /out/install-again.txt
step installed-again

# the issuer crashes: the supervisor starts it again
child=$(lastpid 'started'); echo $child > /out/child-pid.txt
wine taskkill /F /PID $child > /out/taskkill-child.txt 2>&1
waitfor $LOG 'ended unexpectedly'; step child-killed
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 2 ] && break; sleep 0.1; done
step child-back
health health-after-child.txt
cp $LOG /out/log-after-child.txt

# the service process itself crashes: its issuer ends with it (the port is free); sc start starts both again
supervisor=$(lastpid 'starting'); echo $supervisor > /out/supervisor-pid.txt
wine taskkill /F /PID $supervisor > /out/taskkill-supervisor.txt 2>&1
for i in $(seq 1 100); do wine tasklist | grep -qi 'node.exe' || break; sleep 0.2; done
step supervisor-killed
wine tasklist > /out/tasks-after-supervisor.txt 2>&1
query query-after-supervisor.txt
wine sc start CampusCardIssuer > /dev/null 2>&1
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 3 ] && break; sleep 0.1; done
step started-again
health health-after-supervisor.txt
cp $LOG /out/log-after-supervisor.txt

# Windows starts again (Wine shut down and booted): the service starts by itself
wineserver -k; wineserver -w
step shut-down
wineserver -p; wine cmd /c ver > /dev/null 2>&1
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 4 ] && break; sleep 0.1; done
step booted
health health-after-boot.txt
query query-after-boot.txt

# sc stop: the issuer closes, the service reports STOPPED
wine sc stop CampusCardIssuer > /out/stop.txt 2>&1
for i in $(seq 1 300); do wine sc query CampusCardIssuer | grep -q STOPPED && break; sleep 0.2; done
step stopped
query query-stopped.txt
health health-stopped.txt
sleep 1; wine tasklist > /out/tasks-stopped.txt 2>&1
cp $LOG /out/log-stopped.txt

# uninstall, twice
wine cmd /c 'Z:\opt\pkg\uninstall-service.cmd' < /dev/null > /out/uninstall.txt 2>&1; echo "rc=$?" >> /out/uninstall.txt
step uninstalled
wine cmd /c 'Z:\opt\pkg\uninstall-service.cmd' < /dev/null > /out/uninstall-again.txt 2>&1; echo "rc=$?" >> /out/uninstall-again.txt
query query-uninstalled.txt
wine /opt/pkg/node.exe 'Z:\opt\pkg\app\service-install.mjs' status > /out/status-uninstalled.txt 2>&1
wine /opt/pkg/node.exe 'Z:\opt\pkg\app\service.mjs' > /out/service-by-hand.txt 2>&1; echo "rc=$?" >> /out/service-by-hand.txt
ls "/opt/wine-prefix/drive_c/Program Files" > /out/program-files.txt
ls -R /opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer > /out/data-dir.txt
step done
`;
    lab = runLab(path.join(work, 'card-issuer-win-x64'), script);
  }, labTimeout);

  afterAll(() => {
    if (lab) fs.rmSync(path.dirname(lab.out), { recursive: true, force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs from install-service.cmd: copied to Program Files, started, answering on 18085, logging', () => {
    const install = lab.read('install.txt');
    expect(install).toContain('Copying the issuer to C:\\Program Files\\CampusCardIssuer');
    expect(install).toContain('Data folder (device key, settings, log): C:\\ProgramData\\CampusCardIssuer, for SYSTEM and Administrators only');
    expect(install).toContain('The card issuer service (CampusCardIssuer) is installed and running: http://127.0.0.1:18085/reader');
    expect(install).toContain('rc=0');
    expect(lab.read('query-installed.txt')).toMatch(/STATE\s+:\s+4\s+RUNNING/);
    expect(JSON.parse(lab.read('health-installed.txt'))).toMatchObject({ status: 'ok' });
    const log = lab.read('log-installed.txt');
    expect(log).toMatch(/\[service\] Card issuer service \S+ starting \(process \d+\): data in C:\\ProgramData\\CampusCardIssuer/);
    expect(log).toMatch(/\[issuer\] Card issuer: http:\/\/127\.0\.0\.1:18085\/ \(Campus virtual reader; cards in C:\\ProgramData\\CampusCardIssuer\)/);
    // settings.txt from the installer's console: the issuer answers the shell it names
    expect(lab.read('settings.txt')).toContain('CARD_ISSUER_ALLOWED_ORIGINS=https://campus.example.com\r\n');
    expect(log).toContain('[issuer] Answers the shell at: https://campus.example.com');
  });

  it('says it is installed already when installed twice, in the language CARD_ISSUER_LANG names', () => {
    const again = lab.read('install-again.txt');
    expect(again).toContain('發卡服務（CampusCardIssuer）已安裝（正在執行）');
    expect(again).toContain('未做任何變更');
    expect(again).toContain('rc=0');
  });

  it('starts the issuer again after it crashed, and says so in the log', () => {
    const log = lab.read('log-after-child.txt');
    const killed = lab.read('child-pid.txt').trim();
    expect(log).toMatch(/\[service\] The card issuer ended unexpectedly \(exit code 1\) after \d+ s; starting it again in 1 s \(restart 1\)/);
    const restarted = /Card issuer started \(process (\d+)\)/g;
    const pids = [...log.matchAll(restarted)].map((match) => match[1]);
    expect(pids).toHaveLength(2);
    expect(pids[0]).toBe(killed);
    expect(pids[1]).not.toBe(killed);
    expect(JSON.parse(lab.read('health-after-child.txt'))).toMatchObject({ status: 'ok' });
  });

  it('ends the issuer with the service process when that crashes, so that sc start finds the port free', () => {
    const log = lab.read('log-after-supervisor.txt');
    const starts = [...log.matchAll(/Card issuer service \S+ starting \(process (\d+)\)/g)].map((match) => match[1]);
    expect(starts).toHaveLength(2);
    expect(starts[0]).toBe(lab.read('supervisor-pid.txt').trim());
    expect(lab.read('tasks-after-supervisor.txt')).not.toMatch(/node\.exe/i);
    // Wine 10 keeps no failure actions (SERVICE_CONFIG_FAILURE_ACTIONS "not implemented"): the SCM leaves it stopped
    expect(lab.read('query-after-supervisor.txt')).toMatch(/STATE\s+:\s+1\s+STOPPED/);
    expect(log.split(/starting \(process /).at(-1)).not.toContain('ended unexpectedly');
    expect(JSON.parse(lab.read('health-after-supervisor.txt'))).toMatchObject({ status: 'ok' });
  });

  it('starts by itself when Windows starts (start= auto)', () => {
    expect(lab.read('query-after-boot.txt')).toMatch(/STATE\s+:\s+4\s+RUNNING/);
    expect(JSON.parse(lab.read('health-after-boot.txt'))).toMatchObject({ status: 'ok' });
  });

  it('stops on sc stop: the issuer closes its server, the service reports STOPPED, no node.exe is left', () => {
    const log = lab.read('log-stopped.txt');
    expect(log).toMatch(/\[service\] Windows asked the service to stop\r\n.*\[issuer\] service stop: card issuer shutting down/);
    expect(log).toMatch(/\[service\] The card issuer has stopped\r\n.*\[service\] Card issuer service stopped\r\n$/);
    expect(lab.read('query-stopped.txt')).toMatch(/STATE\s+:\s+1\s+STOPPED/);
    expect(lab.read('health-stopped.txt')).toMatch(/Connection refused|URLError/);
    expect(lab.read('tasks-stopped.txt')).not.toMatch(/node\.exe/i);
  });

  it('uninstalls: the service and the program folder go, the data folder stays; a second uninstall says so', () => {
    const uninstall = lab.read('uninstall.txt');
    expect(uninstall).toContain('The card issuer service is removed. Its data folder C:\\ProgramData\\CampusCardIssuer is kept');
    expect(uninstall).toContain('rc=0');
    expect(lab.read('uninstall-again.txt')).toContain('The card issuer service (CampusCardIssuer) is not installed: nothing to remove.');
    expect(lab.read('uninstall-again.txt')).toContain('rc=0');
    expect(lab.read('status-uninstalled.txt')).toContain('CampusCardIssuer: not installed');
    expect(lab.read('query-uninstalled.txt')).not.toContain('rc=0');
    expect(lab.read('program-files.txt')).not.toContain('CampusCardIssuer');
    expect(lab.read('data-dir.txt')).toMatch(/device-key\.json/);
    expect(lab.read('data-dir.txt')).toMatch(/issuer\.log/);
    expect(lab.read('data-dir.txt')).toMatch(/settings\.txt/);
  });

  it('says what to run instead when service.mjs is started by hand, not by the SCM', () => {
    expect(lab.read('service-by-hand.txt')).toContain('service.mjs is started by Windows (the service "CampusCardIssuer"). To install the service run install-service.cmd as administrator');
    expect(lab.read('service-by-hand.txt')).toContain('rc=1');
  });

  it('runs in well under 2 minutes with the cached root', () => {
    console.info(`Wine service lab: ${lab.seconds.toFixed(1)} s; steps:\n${lab.read('steps.txt')}`);
    expect(lab.seconds).toBeLessThan(90);
  });
});

describe.skipIf(problem !== null)(`the device key sealed with DPAPI under Wine 10${problem ? ` (${problem})` : ''}`, () => {
  let lab: Lab;
  let work: string;
  const pair = sm2.generateKeyPairHex();

  beforeAll(async () => {
    work = await makePackage();
    // Wine's CryptProtectData keys on the user name and a constant (no per-prefix secret), so "another PC" is this
    // prefix with another MachineGuid, which the issuer's entropy binds the seal to
    const script = String.raw`
${shHelpers}
D=/opt/wine-prefix/drive_c/issuer-data
wineserver -p
run() {
  CARD_ISSUER_DATA_DIR='C:\issuer-data' CARD_ISSUER_PORT=18086 wine /opt/pkg/node.exe 'Z:\opt\pkg\app\card-issuer.mjs' > /out/$1.txt 2>&1 &
  waitfor /out/$1.txt 'Card issuer: http'
  pid=$(grep -o '"pid":[0-9]*' /out/$1.txt | head -1 | cut -d: -f2)
  wine taskkill /F /PID $pid > /dev/null 2>&1; wait
  cp $D/device-key.json /out/$1.json
  step $1
}
mkdir -p $D; cp /out/plain-key.json $D/device-key.json
step start
run migrated
run same-pc
wine reg add 'HKLM\SOFTWARE\Microsoft\Cryptography' /v MachineGuid /t REG_SZ /d 3f1c2b6e-0d4a-4c1e-9b7a-5e2f8c9d1a04 /f > /dev/null 2>&1
CARD_ISSUER_LANG=zh-CN run other-pc
ls $D > /out/other-pc-files.txt
cp $D/device-key.json.unopened /out/unopened.json 2>/dev/null
run other-pc-again
`;
    lab = runLab(path.join(work, 'card-issuer-win-x64'), script, (out) => fs.writeFileSync(path.join(out, 'plain-key.json'), `${JSON.stringify(pair)}\n`));
  }, labTimeout);

  afterAll(() => {
    if (lab) fs.rmSync(path.dirname(lab.out), { recursive: true, force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const stored = (name: string) => JSON.parse(lab.read(name)) as { publicKey: string; privateKey?: string; sealedPrivateKey?: { with: string; data: string } };

  it('seals a plain key file from before at the first start, keeping the key pair', () => {
    expect(stored('migrated.json')).toEqual({ publicKey: pair.publicKey, sealedPrivateKey: { with: 'dpapi-machine', data: expect.any(String) } });
    expect(lab.read('migrated.json')).not.toContain(pair.privateKey);
    expect(lab.read('migrated.txt')).toContain('is now sealed to this PC (Windows DPAPI)');
  });

  it('opens the sealed key at the next start on the same PC, saying nothing', () => {
    expect(stored('same-pc.json').publicKey).toBe(pair.publicKey);
    expect(lab.read('same-pc.txt')).not.toMatch(/sealed/);
  });

  it('on another PC opens nothing: a log line in the PC’s language, the old file kept aside, a new key pair', () => {
    const other = stored('other-pc.json');
    expect(other.publicKey).not.toBe(pair.publicKey);
    expect(other.sealedPrivateKey?.with).toBe('dpapi-machine');
    expect(lab.read('other-pc.txt')).toMatch(/"level":40,.*中的设备密钥是在另一台电脑上封存的，本机无法打开：本机已生成新的设备密钥/);
    expect(lab.read('other-pc-files.txt')).toContain('device-key.json.unopened');
    expect(stored('unopened.json').publicKey).toBe(pair.publicKey);
    expect(stored('other-pc-again.json').publicKey).toBe(other.publicKey);
    expect(lab.read('other-pc-again.txt')).not.toMatch(/sealed|封存/);
  });
});
