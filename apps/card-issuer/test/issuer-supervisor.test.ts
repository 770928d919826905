import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Localised } from '@campus/contracts';
import { RotatingLog } from '../src/windows/rotating-log.ts';
import { IssuerSupervisor } from '../src/windows/supervisor.ts';

// The supervisor the Windows service runs, with small node scripts in place of the issuer (it is platform-neutral:
// a child process with pipes and an IPC channel); the Wine test runs it with the real issuer under the SCM.
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** The issuer's stand-in: `script` as a node program with the supervisor's stdio. */
function setUp(script: string, options: { language?: keyof Localised; backoffMs?: number[]; stopGraceMs?: number } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-supervisor-'));
  const log = new RotatingLog(path.join(dir, 'logs', 'issuer.log'));
  let starts = 0;
  const supervisor = new IssuerSupervisor({
    spawnIssuer: () => {
      starts += 1;
      return spawn(process.execPath, ['-e', script], { env: { ...process.env, START: String(starts) }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    },
    log,
    say: (message) => message[options.language ?? 'en-US'],
    backoffMs: options.backoffMs ?? [50, 100],
    healthyAfterMs: 60_000,
    stopGraceMs: options.stopGraceMs ?? 2_000,
  });
  cleanups.push(async () => {
    await supervisor.stop();
    log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const text = () => (fs.existsSync(log.file) ? fs.readFileSync(log.file, 'utf8') : '');
  const until = async (what: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error(`timed out; the log:\n${text()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { supervisor, text, until, starts: () => starts };
}

const listening = `
  console.log('Card issuer: listening (start ' + process.env.START + ')');
  process.on('message', (m) => { if (m && m.campusIssuer === 'stop') { console.log('closing'); process.exit(0); } });
  setInterval(() => {}, 1000);
`;

describe('the service supervisor of the card issuer', () => {
  it("starts the issuer and writes its output and stderr to the log, with the process id", async () => {
    const lab = setUp(`${listening}; console.error('a warning');`);
    await lab.supervisor.start();
    await lab.until(() => lab.text().includes('a warning'));
    expect(lab.text()).toContain(`[service] Card issuer started (process ${lab.supervisor.pid})`);
    expect(lab.text()).toMatch(/\[issuer\] Card issuer: listening \(start 1\)/);
    expect(lab.text()).toMatch(/\[issuer:err\] a warning/);
  });

  it('starts the issuer again after a crash, waiting longer each time, and says so in the log', async () => {
    const lab = setUp(`if (Number(process.env.START) < 4) process.exit(3); ${listening}`);
    await lab.supervisor.start();
    await lab.until(() => lab.text().includes('listening (start 4)'));
    const crashes = lab.text().match(/ended unexpectedly.*/g) ?? [];
    expect(crashes).toHaveLength(3);
    expect(crashes[0]).toMatch(/\(exit code 3\) after 0 s; starting it again in 0\.05 s \(restart 1\)/);
    expect(crashes[1]).toMatch(/starting it again in 0\.1 s \(restart 2\)/);
    expect(crashes[2]).toMatch(/starting it again in 0\.1 s \(restart 3\)/);
    expect(lab.starts()).toBe(4);
  });

  it('stops the issuer through its IPC channel and starts it no more', async () => {
    const lab = setUp(listening);
    await lab.supervisor.start();
    await lab.until(() => lab.text().includes('listening'));
    await lab.supervisor.stop();
    expect(lab.text()).toMatch(/\[issuer\] closing\r\n.*\[service\] The card issuer has stopped/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lab.starts()).toBe(1);
    expect(lab.text()).not.toContain('ended unexpectedly');
  });

  it('ends an issuer that does not stop in time by force, in the log in the PC’s language', async () => {
    const lab = setUp(`console.log('deaf'); process.on('message', () => {}); setInterval(() => {}, 1000);`, { stopGraceMs: 300, language: 'zh-CN' });
    await lab.supervisor.start();
    await lab.until(() => lab.text().includes('deaf'));
    await lab.supervisor.stop();
    expect(lab.text()).toContain('发卡器未在 0.3 秒内停止：强制结束');
    expect(lab.text()).toContain('发卡器已停止');
  });

  it('stops during a back-off wait without starting the issuer again', async () => {
    const lab = setUp('process.exit(1)', { backoffMs: [400] });
    await lab.supervisor.start();
    await lab.until(() => lab.text().includes('ended unexpectedly'));
    await lab.supervisor.stop();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(lab.starts()).toBe(1);
  });
});
