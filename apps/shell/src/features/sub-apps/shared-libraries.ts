import * as react from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as reactDom from 'react-dom';
import * as reactDomClient from 'react-dom/client';
import { sharedLibrariesGlobal, type sharedLibraryProperties } from '@campus/contracts';

type Lent = Record<(typeof sharedLibraryProperties)[keyof typeof sharedLibraryProperties], unknown> & { version: string };

/**
 * Lends the shell's React to the sub-apps (see @campus/contracts shared-libraries.ts): set once, before the
 * loader evaluates any sub-app, frozen so no sub-app can swap a library under the others.
 */
export function lendSharedLibraries(target: Window = window): void {
  if (Object.prototype.hasOwnProperty.call(target, sharedLibrariesGlobal)) return;
  const lent: Lent = Object.freeze({ version: react.version, react, jsxRuntime, reactDom, reactDomClient });
  Object.defineProperty(target, sharedLibrariesGlobal, { value: lent, enumerable: false, configurable: false, writable: false });
}
