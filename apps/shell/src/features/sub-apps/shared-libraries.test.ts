import { describe, expect, it } from 'vitest';
import * as react from 'react';
import * as reactDomClient from 'react-dom/client';
import { sharedLibrariesGlobal, sharedLibraryProperties, sharedReactMajor } from '@campus/contracts';
import { lendSharedLibraries } from './shared-libraries.ts';

describe('the React the shell lends to sub-apps', () => {
  it('holds every library a sub-app build maps to it: the shell’s own modules, of the major the contract names', () => {
    const target = {} as Window;
    lendSharedLibraries(target);
    const lent = (target as unknown as Record<string, Record<string, unknown>>)[sharedLibrariesGlobal]!;
    for (const property of Object.values(sharedLibraryProperties)) expect(lent[property]).toBeDefined();
    expect(lent.react).toBe(react);
    expect(lent.reactDomClient).toBe(reactDomClient);
    expect(Number(String(lent.version).split('.')[0])).toBe(sharedReactMajor);
  });

  it('cannot be swapped or changed by a sub-app, and lending twice keeps the first', () => {
    const target = {} as Window;
    lendSharedLibraries(target);
    const first = (target as unknown as Record<string, unknown>)[sharedLibrariesGlobal];
    lendSharedLibraries(target);
    expect((target as unknown as Record<string, unknown>)[sharedLibrariesGlobal]).toBe(first);
    expect(() => {
      (target as unknown as Record<string, unknown>)[sharedLibrariesGlobal] = {};
    }).toThrow(TypeError);
    expect(() => {
      (first as Record<string, unknown>).react = {};
    }).toThrow(TypeError);
  });
});
