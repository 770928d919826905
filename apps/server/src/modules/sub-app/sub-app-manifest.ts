import { codes, subAppManifestRules, subAppsPathPrefix } from '@campus/contracts';
import type { Localised, SubAppManifest } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { apiPrefixes } from '../../http/api-prefixes.ts';
import { isSameOriginPath } from '../../lib/same-origin-path.ts';
import { subAppEntryProblem } from '../../lib/sub-app-entry-url.ts';

/**
 * First path segments a registered sub-system may not take: the server's own (API, files, docs) and the shell's
 * routes of spec §2, whose pages would be hidden behind the sub-app (or hide it).
 */
const reservedSegments = new Set<string>([
  ...apiPrefixes.map((prefix) => prefix.split('/')[1] ?? '').filter(Boolean),
  'assets', 'api',
  'home', 'login', 'not-login', 'error', 'not-find', 'tools', 'swipe-login', 'pwd-swipe-login', 'system-init', 'create-superuser',
  'swiper-sys-secret', 'swipe-master-card', 'swipe-master-card-gm', 'systemadmin-logincard', 'system-keycard', 'select-func',
  'super-user-card', 're-swipe-sys-sceret',
]);

function isReserved(basePath: string): boolean {
  const first = basePath.split('/')[0] ?? '';
  return reservedSegments.has(first) || first.startsWith('key-card-');
}

/** Whether two base paths claim a common path: equal, or one is a folder of the other. */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** What a registration is checked against: the catalogue as it is, less the registration being replaced. */
export interface ManifestContext {
  systems: { appNo: string; frontRoutingAddr: string; label: Localised }[];
  pages: { id: string; appNo: string; path: string }[];
}

/** A manifest as it is stored: defaults filled in, lists without repeats. */
export interface CheckedManifest extends SubAppManifest {
  entry: string;
  scriptOrigins: string[];
  functionCodes: string[];
}

function bad(code: (typeof codes)[keyof typeof codes], values: Record<string, string>, status = 400): AppError {
  return new AppError(code, status, null, values);
}

/** The origin `value` names exactly (`https://cdn.example.com`, no path, no slash), or null. */
function exactOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin === value ? value : null;
  } catch {
    return null;
  }
}

/**
 * The rules of a registration beyond its schema (the shape, patterns and sizes are the route's TypeBox schema):
 * one failure, the first found, with the code and values its message needs. `language` picks the name shown
 * for a system already using a code or path.
 */
export function checkManifest(manifest: SubAppManifest, context: ManifestContext, language: keyof Localised): CheckedManifest {
  const { basePath } = manifest;
  for (const system of context.systems) {
    if (system.frontRoutingAddr !== '' && overlaps(basePath, system.frontRoutingAddr)) {
      throw bad(codes.subAppBasePathTaken, { basePath, name: system.label[language] }, 409);
    }
  }
  if (isReserved(basePath)) throw bad(codes.subAppBasePathReserved, { basePath });
  // a system with an empty base path (tc) owns only its pages' paths
  const namesByAppNo = new Map(context.systems.map((s) => [s.appNo, s.label[language]]));
  for (const page of context.pages) {
    if (page.path !== '' && (page.path === `/${basePath}` || page.path.startsWith(`/${basePath}/`))) {
      throw bad(codes.subAppBasePathTaken, { basePath, name: namesByAppNo.get(page.appNo) ?? page.appNo }, 409);
    }
  }

  const entry = manifest.entry ?? `${subAppsPathPrefix}${basePath}/`;
  const entryProblem = subAppEntryProblem(entry);
  if (entryProblem) throw bad(codes.subAppEntryInvalid, { entry: entryProblem.credentials ? '…' : entry });

  const scriptOrigins: string[] = [];
  for (const origin of manifest.scriptOrigins ?? []) {
    if (exactOrigin(origin) === null) throw bad(codes.subAppOriginInvalid, { origin });
    if (!scriptOrigins.includes(origin)) scriptOrigins.push(origin);
  }
  const functionCodes = [...new Set(manifest.functionCodes ?? [])];

  const takenIds = new Set(context.pages.map((p) => p.id));
  const depthOf = new Map<string, number>();
  for (const page of manifest.pages) {
    if (takenIds.has(page.id) || depthOf.has(page.id)) throw bad(codes.subAppPageIdTaken, { id: page.id }, 409);
    let depth = 1;
    if (page.parentId !== undefined) {
      const parentDepth = depthOf.get(page.parentId);
      const parent = manifest.pages.find((p) => p.id === page.parentId);
      if (parentDepth === undefined || parent?.path !== '') throw bad(codes.subAppPageParentInvalid, { id: page.id, parentId: page.parentId });
      depth = parentDepth + 1;
    }
    if (depth > subAppManifestRules.maxDepth) throw bad(codes.subAppPageTooDeep, { id: page.id });
    if (page.path !== '' && !(page.path.startsWith(`/${basePath}/`) && isSameOriginPath(page.path) && !/[\s?#\\]/.test(page.path))) {
      throw bad(codes.subAppPagePathOutside, { id: page.id, path: page.path, basePath });
    }
    for (const perm of page.funcRightPerms ?? []) {
      if (!functionCodes.includes(perm)) throw bad(codes.subAppFunctionCodeUnknown, { code: perm });
    }
    depthOf.set(page.id, depth);
  }
  return { ...manifest, entry, scriptOrigins, functionCodes };
}
