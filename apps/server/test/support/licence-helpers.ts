import fs from 'node:fs';
import path from 'node:path';
import type { LicencePayload } from '@campus/contracts';
import type { SigningKey } from '../../src/modules/licence/licence-file.ts';

export { tempDir } from './helpers.ts';

const keysDir = path.join(import.meta.dirname, '..', '..', 'licence-keys', 'test-private');
/** The repository's test signing keys (trusted by tests through licence-keys/test-trust.json). */
export const edKey = JSON.parse(fs.readFileSync(path.join(keysDir, 'test-ed25519-2026.private.json'), 'utf8')) as SigningKey;
export const smKey = JSON.parse(fs.readFileSync(path.join(keysDir, 'test-sm2-2026.private.json'), 'utf8')) as SigningKey;

export const docsLicences = path.join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'licences');

export function samplePayload(overrides: Partial<LicencePayload> = {}): LicencePayload {
  return {
    format: 1,
    code: 'UNIT-0001',
    customerNo: '10001',
    customerName: 'Demo Campus',
    prdPkgCategory: 'Campus Standard',
    isFormal: true,
    beginTime: Date.UTC(2026, 0, 1),
    endTime: Date.UTC(2030, 0, 1),
    empCount: 500,
    isHasMobile: false,
    isPermitOpenapi: false,
    isLimitDevice: false,
    infos: [{ appId: 'qy', appName: 'Enterprise Data', editionName: 'Standard', beginTime: null, endTime: null, isHasWeb: true, isHasMobile: false }],
    devices: [],
    issuedAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

