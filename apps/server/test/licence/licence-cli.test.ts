import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLicenceFile, readPayload } from '../../src/modules/licence/licence-file.ts';
import { docsLicences, tempDir } from '../support/licence-helpers.ts';

const cli = path.join(import.meta.dirname, '..', '..', 'src', 'cli', 'licence.ts');
const key = path.join(import.meta.dirname, '..', '..', 'licence-keys', 'test-private', 'test-sm2-2026.private.json');
const dir = tempDir();

function run(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', env: { ...process.env, LICENCE_TRUST_FILE: '' } });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

const base = ['issue', '--key', key, '--customer-no', '10001', '--customer-name', 'Demo', '--package', 'Std', '--begin', '2026-01-01', '--end', '2026-12-31', '--employees', '100', '--apps', 'qy,kq'];

describe('the vendor licence CLI', { timeout: 60_000 }, () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--help prints the usage', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.out).toContain('npm run licence -- issue');
  });

  it('issues a licence that verifies, with the days on the campus clock', () => {
    const out = path.join(dir, 'a.lic');
    const issued = run(...base, '--trial', '--device', 'Gate:unlimited', '--code', 'CLI-1', '--out', out);
    expect(issued.status, issued.err).toBe(0);
    const payload = readPayload(parseLicenceFile(fs.readFileSync(out)).payloadBytes);
    expect(payload).toMatchObject({ code: 'CLI-1', isFormal: false, beginTime: Date.parse('2026-01-01T00:00:00+08:00'), endTime: Date.parse('2026-12-31T23:59:59.999+08:00'), isLimitDevice: true });
    expect(payload.devices).toEqual([{ deviceName: 'Gate', count: -1, beginTime: null, endTime: null, remarks: '' }]);
    const verified = run('verify', out);
    expect(verified.status).toBe(0);
    expect(verified.out).toContain('valid: SM2 signature by key test-sm2-2026');
  });

  it('verify fails (exit 1) on the tampered example', () => {
    const r = run('verify', path.join(docsLicences, 'tampered-example.lic'));
    expect(r.status).toBe(1);
    expect(r.err).toContain('signature does not match');
  });

  it('names every bad argument (exit 2)', () => {
    const out = path.join(dir, 'b.lic');
    const cases: [string[], RegExp][] = [
      [['issue', '--customer-no', '10001'], /--key is required/],
      [[...base, '--customer-no', '0123', '--out', out], /--customer-no must be/],
      [[...base, '--begin', '2026-02-30', '--out', out], /not a calendar date/],
      [[...base, '--end', '2025-01-01', '--out', out], /--end is before --begin/],
      [[...base, '--employees', 'many', '--out', out], /--employees must be/],
      [[...base, '--apps', 'qy,zz', '--out', out], /unknown applications: zz/],
      [[...base, '--formal', '--trial', '--out', out], /exclude each other/],
      [[...base, '--device', 'Gate', '--out', out], /--device must be/],
      [[...base, '--out', path.join(dir, 'x.txt')], /must name a \.lic file/],
      [[...base, '--colour', 'red'], /Unknown option/],
      [['keygen', '--alg', 'RSA', '--kid', 'k', '--out', dir], /--alg must be Ed25519 or SM2/],
      [['frobnicate'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('keygen writes a private key file and a trust entry, and never overwrites a key', () => {
    const made = run('keygen', '--alg', 'Ed25519', '--kid', 'cli-test', '--out', dir);
    expect(made.status, made.err).toBe(0);
    const trust = JSON.parse(fs.readFileSync(path.join(dir, 'cli-test.trust.json'), 'utf8')) as Record<string, { alg: string }>;
    expect(trust['cli-test']?.alg).toBe('Ed25519');
    expect(run('keygen', '--alg', 'Ed25519', '--kid', 'cli-test', '--out', dir).err).toMatch(/never overwritten/);
  });
});
