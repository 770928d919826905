import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script without type declarations
import { wineLabProblem } from '../../../../scripts/wine-lab/wine-root.mjs';
import { openUnzippedWindowsDownload } from './support/unzipped-windows-download.ts';
import type { UnzippedWindowsDownload } from './support/unzipped-windows-download.ts';

// card-issuer-win-x64.zip as `node scripts/build-issuer.mjs` builds it, unzipped in the cached Debian 13 root and run
// under Wine 10 with its own scripts: the service under Wine's Service Control Manager (services.exe, sc.exe,
// taskkill.exe), card.cmd and start.cmd on the download's data folder, the device key sealed with Wine's crypt32.
// The root has a network of its own, so the issuer listens on its default port 18085 as on an operator's PC. Each
// part runs one sh script in the root and asserts on what it left in an output folder. Skipped, with the reason as
// the suite's name, where the Wine lab cannot run (not root, not Linux x64).
const problem = (wineLabProblem as () => string | null)();

interface Part {
  read(name: string): string;
  seconds: number;
}

// sh helpers of the parts: wait for a line in a file (at most 30 s), the issuer's answers (python3 in the root)
const shHelpers = String.raw`
LOG=/opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer/logs/issuer.log
step() { echo "$1 $(date +%s.%N)" >> $OUT/steps.txt; }
waitfor() { for i in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timed out waiting for $2 in $1" >> $OUT/steps.txt; return 1; }
count() { grep -c "$2" "$1" 2>/dev/null || true; }
get() { python3 -c "import sys,urllib.request;print(urllib.request.urlopen('http://127.0.0.1:18085'+sys.argv[1], timeout=5).read().decode())" "$1" > $OUT/$2 2>&1 || true; }
health() { get /healthz $1; }
lastpid() { grep -o "$1 (process [0-9]*" $LOG | tail -1 | grep -o '[0-9]*$'; }
query() { wine sc query CampusCardIssuer > $OUT/$1 2>&1; echo "rc=$?" >> $OUT/$1; }
`;

describe.skipIf(problem !== null)(`the Windows download's service, card.cmd and device key under Wine 10${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let download: UnzippedWindowsDownload;
  let out: string;

  /** Runs `script` (sh) in the root in the download's folder ($PKG); its files in $OUT are read back. */
  async function runPart(name: string, script: string, prepare: (dir: string) => void = () => {}): Promise<Part> {
    const dir = path.join(out, name);
    fs.mkdirSync(dir);
    prepare(dir);
    const started = Date.now();
    // Wine shut down at the end: the next part starts as after a reboot
    const result = await download.session.run(`OUT=/out/${name}; PKG=${download.folder}; cd $PKG\n${shHelpers}\n${script}\nwineserver -k; wineserver -w\n`, {}, 240_000);
    const seconds = (Date.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`the part ${name} failed in the Wine root (${result.status}): ${result.stderr.slice(-2000)}`);
    const read = (file: string) => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : '');
    return { read, seconds };
  }

  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-wine-service-'));
    download = await openUnzippedWindowsDownload([{ from: out, to: '/out' }], 'private');
    console.log(`the Windows download's scripts under Wine 10: ${download.timings.join(', ')}`);
  }, 600_000);

  afterAll(async () => {
    await download?.session.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  }, 60_000);

  describe('the Windows service', () => {
    let lab: Part;

    beforeAll(async () => {
      // wineserver -p: Wine's own processes (services.exe) stay while no program runs, as Windows' SCM does; without
      // it Wine shuts down between two commands and its next command boots it again, starting auto-start services
      lab = await runPart(
        'service',
        String.raw`
wineserver -p
step start
CARD_ISSUER_ALLOWED_ORIGINS=https://campus.example.com wine cmd /c install-service.cmd < /dev/null > $OUT/install.txt 2>&1; echo "rc=$?" >> $OUT/install.txt
cp /opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer/settings.txt $OUT/settings.txt
step installed
query query-installed.txt
waitfor $LOG 'Card issuer: http'; health health-installed.txt
cp $LOG $OUT/log-installed.txt
CARD_ISSUER_LANG=zh-MO wine cmd /c install-service.cmd < /dev/null > $OUT/install-again.txt 2>&1; echo "rc=$?" >> $OUT/install-again.txt
step installed-again

# the issuer crashes: the supervisor starts it again
child=$(lastpid 'started'); echo $child > $OUT/child-pid.txt
wine taskkill /F /PID $child > $OUT/taskkill-child.txt 2>&1
waitfor $LOG 'ended unexpectedly'; step child-killed
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 2 ] && break; sleep 0.1; done
step child-back
health health-after-child.txt
cp $LOG $OUT/log-after-child.txt

# the service process itself crashes: its issuer ends with it (the port is free); sc start starts both again
supervisor=$(lastpid 'starting'); echo $supervisor > $OUT/supervisor-pid.txt
wine taskkill /F /PID $supervisor > $OUT/taskkill-supervisor.txt 2>&1
for i in $(seq 1 100); do wine tasklist | grep -qi 'node.exe' || break; sleep 0.2; done
step supervisor-killed
wine tasklist > $OUT/tasks-after-supervisor.txt 2>&1
query query-after-supervisor.txt
wine sc start CampusCardIssuer > /dev/null 2>&1
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 3 ] && break; sleep 0.1; done
step started-again
health health-after-supervisor.txt
cp $LOG $OUT/log-after-supervisor.txt

# Windows starts again (Wine shut down and booted): the service starts by itself
wineserver -k; wineserver -w
step shut-down
wineserver -p; wine cmd /c ver > /dev/null 2>&1
for i in $(seq 1 300); do [ "$(count $LOG 'Card issuer: http')" -ge 4 ] && break; sleep 0.1; done
step booted
health health-after-boot.txt
query query-after-boot.txt

# sc stop: the issuer closes, the service reports STOPPED
wine sc stop CampusCardIssuer > $OUT/stop.txt 2>&1
for i in $(seq 1 300); do wine sc query CampusCardIssuer | grep -q STOPPED && break; sleep 0.2; done
step stopped
query query-stopped.txt
health health-stopped.txt
sleep 1; wine tasklist > $OUT/tasks-stopped.txt 2>&1
cp $LOG $OUT/log-stopped.txt

# uninstall, twice
wine cmd /c uninstall-service.cmd < /dev/null > $OUT/uninstall.txt 2>&1; echo "rc=$?" >> $OUT/uninstall.txt
step uninstalled
wine cmd /c uninstall-service.cmd < /dev/null > $OUT/uninstall-again.txt 2>&1; echo "rc=$?" >> $OUT/uninstall-again.txt
step uninstalled-again
query query-uninstalled.txt
wine node.exe 'app\service-install.mjs' status > $OUT/status-uninstalled.txt 2>&1
step status
wine node.exe 'app\service.mjs' > $OUT/service-by-hand.txt 2>&1; echo "rc=$?" >> $OUT/service-by-hand.txt
step service-by-hand
ls "/opt/wine-prefix/drive_c/Program Files" > $OUT/program-files.txt
ls -R /opt/wine-prefix/drive_c/ProgramData/CampusCardIssuer > $OUT/data-dir.txt
step done
`,
      );
      console.log(`the Windows service part: ${lab.seconds.toFixed(1)} s; steps:\n${lab.read('steps.txt')}`);
    }, 300_000);

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
      const pids = [...log.matchAll(/Card issuer started \(process (\d+)\)/g)].map((match) => match[1]);
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
      expect(lab.seconds).toBeLessThan(90);
    });
  });

  describe('the download’s data folder: card.cmd, start.cmd and the device key sealed with DPAPI', () => {
    let lab: Part;
    const pair = sm2.generateKeyPairHex();
    const fixedNo = 'CB00C0DE0001';

    beforeAll(async () => {
      // start.cmd and card.cmd as an operator runs them, with no CARD_ISSUER_DATA_DIR: both use the folder's data\.
      // Wine's CryptProtectData keys on the user name and a constant (no per-prefix secret), so "another PC" is this
      // prefix with another MachineGuid, which the issuer's entropy binds the seal to
      lab = await runPart(
        'data-folder',
        String.raw`
D=$PKG/data
wineserver -p
run() {
  wine cmd /c start.cmd < /dev/null > $OUT/$1.txt 2>&1 &
  waitfor $OUT/$1.txt 'Card issuer: http'
  get /reader/api/status $1-reader.json
  pid=$(grep -o '"pid":[0-9]*' $OUT/$1.txt | head -1 | cut -d: -f2)
  wine taskkill /F /PID $pid > /dev/null 2>&1; wait
  cp $D/device-key.json $OUT/$1.json
  step $1
}
step start
wine cmd /c card.cmd blank --fixed-no ${fixedNo} --place < /dev/null > $OUT/card-blank.txt 2>&1; echo "rc=$?" >> $OUT/card-blank.txt
wine cmd /c card.cmd place 00000000 < /dev/null > $OUT/card-place-unknown.txt 2>&1; echo "rc=$?" >> $OUT/card-place-unknown.txt
step card-commands
cp $OUT/plain-key.json $D/device-key.json
run migrated
run same-pc
wine reg add 'HKLM\SOFTWARE\Microsoft\Cryptography' /v MachineGuid /t REG_SZ /d 3f1c2b6e-0d4a-4c1e-9b7a-5e2f8c9d1a04 /f > /dev/null 2>&1
CARD_ISSUER_LANG=zh-CN run other-pc
ls $D > $OUT/other-pc-files.txt
cp $D/device-key.json.unopened $OUT/unopened.json 2>/dev/null
run other-pc-again
`,
        (dir) => fs.writeFileSync(path.join(dir, 'plain-key.json'), `${JSON.stringify(pair)}\n`),
      );
      console.log(`the data folder part: ${lab.seconds.toFixed(1)} s; steps:\n${lab.read('steps.txt')}`);
    }, 300_000);

    const stored = (name: string) => JSON.parse(lab.read(name)) as { publicKey: string; privateKey?: string; sealedPrivateKey?: { with: string; data: string } };

    it('card.cmd makes a card in the folder’s data, where the issuer start.cmd starts finds it on its reader', () => {
      expect(lab.read('card-blank.txt')).toContain(`made blank card ${fixedNo}`);
      expect(lab.read('card-blank.txt')).toContain('rc=0');
      expect(lab.read('migrated.txt')).toMatch(/cards in Z:\\opt\\operator-pc\\card-issuer-win-x64\\data/);
      const reader = JSON.parse(lab.read('migrated-reader.json')) as { data: { driver: string; card: { fixedNo: string } | null } };
      expect(reader.data).toMatchObject({ driver: 'virtual', card: { fixedNo } });
    });

    it('card.cmd says what went wrong and ends with the command’s exit code', () => {
      expect(lab.read('card-place-unknown.txt')).toContain('card: there is no card 00000000: make one with "blank" first');
      expect(lab.read('card-place-unknown.txt')).toContain('rc=2');
    });

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
});
