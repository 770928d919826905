import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { SubAppManifest } from '@campus/contracts';
import { checkManifest } from '../../src/modules/sub-app/sub-app-manifest.ts';
import { ManifestSchema } from '../../src/modules/sub-app/sub-app-schemas.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/** The JSON manifests a document shows (its ```json blocks that describe a system). */
function manifestsIn(file: string): SubAppManifest[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!.replace(/^ {3}/gm, '')) as SubAppManifest).filter((json) => 'appNo' in json);
}

// An operator copies these: the server must take each as it is written.
describe('the manifests the documents show', () => {
  for (const file of ['docs/sub-apps.md', 'packages/subapp-sdk/README.md']) {
    it(`${file}: its manifest is one the server registers`, () => {
      const manifests = manifestsIn(file);
      expect(manifests.length).toBe(1);
      for (const manifest of manifests) {
        expect([...Value.Errors(ManifestSchema, manifest)].map((error) => `${error.instancePath} ${error.message}`)).toEqual([]);
        expect(() => checkManifest(manifest, { systems: [], pages: [] }, 'en-US')).not.toThrow();
      }
    });
  }
});
