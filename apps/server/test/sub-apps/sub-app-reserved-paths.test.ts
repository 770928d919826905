import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReserved } from '../../src/modules/sub-app/sub-app-manifest.ts';

// A sub-system registered under a path the shell routes itself would hide that screen (or be hidden by it): every
// top-level route of the shell's router is a base path the server refuses (the identity providers' screen of issue 49
// was not, until this test).
const router = fs.readFileSync(path.resolve(import.meta.dirname, '../../../shell/src/app/router.tsx'), 'utf8');
const shellRoutes = [...router.matchAll(/path: '\/([a-z0-9-]+)'/g)].map((match) => match[1]!);

describe("the shell's own routes", () => {
  it('are read from the router', () => {
    expect(shellRoutes).toEqual(expect.arrayContaining(['login', 'not-login', 'identity-providers', 'systemadmin-logincard']));
  });

  it.each(shellRoutes)('/%s is reserved: no sub-system may take it as its base path', (route) => {
    expect(isReserved(route)).toBe(true);
  });

  it('a base path of its own is not', () => {
    expect(isReserved('door-access')).toBe(false);
  });
});
