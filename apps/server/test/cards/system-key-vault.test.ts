import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SystemKeyVault } from '../../src/modules/gm-account/system-key-vault.ts';
import { tempDir } from '../support/helpers.ts';

// The nodes of one installation share SYSTEM_KEY_KEK_FILE (docs/operating.md "Several server nodes"); each keeps the
// KEK in memory once read.
describe('the system key vault on a KEK file shared by several processes', () => {
  const secret = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

  it('processes on one file seal and open for each other', () => {
    const file = path.join(tempDir(), 'shared.kek');
    const [first, second] = [new SystemKeyVault(file), new SystemKeyVault(file)];
    expect(second.open(first.seal(secret))).toEqual(secret);
    expect(first.open(second.seal(secret))).toEqual(secret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a KEK replaced by another process (lost file, key recovered under a new one) is read again, not kept stale', () => {
    const file = path.join(tempDir(), 'shared.kek');
    const running = new SystemKeyVault(file);
    const before = running.seal(secret);
    expect(running.open(before)).toEqual(secret);
    // the file is lost; a node started since makes a new KEK and seals the recovered key under it
    fs.rmSync(file);
    const restarted = new SystemKeyVault(file);
    const after = restarted.seal(secret);
    expect(after.split(':')[1]).not.toBe(before.split(':')[1]);
    // the node that kept running opens what the database now holds, and seals under the file's KEK from now on
    expect(running.open(after)).toEqual(secret);
    expect(restarted.open(running.seal(secret))).toEqual(secret);
    // another KEK's text, or a changed one, still opens nothing
    expect(new SystemKeyVault(path.join(tempDir(), 'other.kek')).open(after)).toBeNull();
    expect(running.open(after.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toBeNull();
  });

  it('a disk that fills while the KEK is written leaves no half of it: the error says so, and the next try makes a whole one', () => {
    const folder = tempDir();
    const file = path.join(folder, 'system-key.kek');
    const realWrite = fs.writeFileSync;
    const full = vi.spyOn(fs, 'writeFileSync').mockImplementationOnce((target, data, options) => {
      realWrite(target, String(data).slice(0, 10), options); // part of it reached the disk
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    try {
      expect(() => new SystemKeyVault(file).seal(secret)).toThrow(/ENOSPC/);
    } finally {
      full.mockRestore();
    }
    expect(fs.readdirSync(folder)).toEqual([]);
    const vault = new SystemKeyVault(file);
    expect(vault.open(vault.seal(secret))).toEqual(secret);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });
});
