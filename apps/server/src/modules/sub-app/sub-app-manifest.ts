import { codes, subAppManifestRules, subAppsPathPrefix } from '@campus/contracts';
import type { Localised, SubAppManifest } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { apiPrefixes } from '../../http/api-prefixes.ts';
import { displayTextProblem } from '../../lib/display-text.ts';
import { pathFormProblem } from '../../lib/plain-path.ts';
import { isSameOriginPath } from '../../lib/same-origin-path.ts';
import { subAppEntryProblem } from '../../lib/sub-app-entry-url.ts';
import { subAppOriginProblem } from '../../lib/sub-app-origin.ts';

/**
 * First path segments a registered sub-system may not take: the server's own (API, files, docs) and the shell's
 * routes of spec §2, whose pages would be hidden behind the sub-app (or hide it).
 */
const reservedSegments = new Set<string>([
  ...apiPrefixes.map((prefix) => prefix.split('/')[1] ?? '').filter(Boolean),
  'assets', 'api',
  'home', 'login', 'not-login', 'error', 'not-find', 'tools', 'swipe-login', 'pwd-swipe-login', 'system-init', 'create-superuser',
  'swiper-sys-secret', 'swipe-master-card', 'swipe-master-card-gm', 'systemadmin-logincard', 'system-keycard', 'select-func',
  'super-user-card', 're-swipe-sys-sceret', 'identity-providers',
]);

/** Whether a sub-system may not take this base path (its first segment is the server's or a shell route's). */
export function isReserved(basePath: string): boolean {
  const first = basePath.split('/')[0] ?? '';
  return reservedSegments.has(first) || first.startsWith('key-card-');
}

/** Whether two base paths claim a common path: equal, or one is a folder of the other. */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

const appNoPattern = new RegExp(subAppManifestRules.appNoPattern);

/**
 * A manifest (or any body) whose `appNo` is a string that is not a system code: the refusal that says so, in the
 * caller's language (issue 48 item 18), checked before the schema, whose message would name only a pattern. Null
 * when the code fits or is not a string (the schema then names the field).
 */
export function appNoRefusal(body: unknown): AppError | null {
  const appNo = typeof body === 'object' && body !== null ? (body as { appNo?: unknown }).appNo : undefined;
  if (typeof appNo !== 'string' || appNoPattern.test(appNo)) return null;
  const shown = appNo.length > 40 ? `${appNo.slice(0, 40)}…` : appNo;
  return bad(codes.subAppCodeInvalid, { appNo: shown });
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
  return new AppError(code, { status, values });
}

/** A name in three languages that holds a character no name may show: refused, naming the field. */
function requireDisplayLabel(label: Localised, field: string): void {
  for (const [language, text] of Object.entries(label)) {
    const character = displayTextProblem(text);
    if (character !== null) throw bad(codes.displayTextInvalid, { field: `${field}.${language}`, character });
  }
}

/** A path that is not what it looks like once decoded and resolved: refused before it is checked (issue 46). */
function requirePlainPath(path: string, field: string): void {
  const problem = pathFormProblem(path);
  if (problem?.kind === 'climbs-out') throw bad(codes.subAppPathClimbsOut, { field, path });
  if (problem) throw bad(codes.subAppPathNotPlain, { field, path });
}

/** An origin the content policy of every page would admit: exact, https unless loopback or listed. */
function requireOrigin(origin: string, field: string, httpHosts: readonly string[]): void {
  const problem = subAppOriginProblem(origin, httpHosts);
  if (problem === 'wildcard') throw bad(codes.subAppOriginWildcard, { field, origin });
  if (problem === 'http') throw bad(codes.subAppOriginPlainHttp, { field, origin });
  if (problem) throw bad(codes.subAppOriginInvalid, { origin });
}

/**
 * The rules of a registration beyond its schema (the shape, patterns and sizes are the route's TypeBox schema):
 * one failure, the first found, with the code and values its message needs. `language` picks the name shown
 * for a system already using a code or path; `httpHosts` are the hosts it may load from over plain http
 * (SUBAPP_HTTP_HOSTS).
 */
export function checkManifest(manifest: SubAppManifest, context: ManifestContext, language: keyof Localised, httpHosts: readonly string[] = []): CheckedManifest {
  const { basePath } = manifest;
  requireDisplayLabel(manifest.label, 'label');
  manifest.pages.forEach((page, index) => requireDisplayLabel(page.title, `pages[${index}].title`));
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
  if (entry.startsWith('/')) requirePlainPath(entry, 'entry');
  else {
    requireOrigin(new URL(entry).origin, 'entry', httpHosts);
    // the path as written: new URL resolves dot segments away
    requirePlainPath(/^[^:/]+:\/\/[^/]*(.*)$/.exec(entry)?.[1] ?? '', 'entry');
  }

  const scriptOrigins: string[] = [];
  (manifest.scriptOrigins ?? []).forEach((origin, index) => {
    requireOrigin(origin, `scriptOrigins[${index}]`, httpHosts);
    if (!scriptOrigins.includes(origin)) scriptOrigins.push(origin);
  });
  const functionCodes = [...new Set(manifest.functionCodes ?? [])];

  const takenIds = new Set(context.pages.map((p) => p.id));
  const depthOf = new Map<string, number>();
  for (const [index, page] of manifest.pages.entries()) {
    if (takenIds.has(page.id) || depthOf.has(page.id)) throw bad(codes.subAppPageIdTaken, { id: page.id }, 409);
    let depth = 1;
    if (page.parentId !== undefined) {
      const parentDepth = depthOf.get(page.parentId);
      const parent = manifest.pages.find((p) => p.id === page.parentId);
      if (parentDepth === undefined || parent?.path !== '') throw bad(codes.subAppPageParentInvalid, { id: page.id, parentId: page.parentId });
      depth = parentDepth + 1;
    }
    if (depth > subAppManifestRules.maxDepth) throw bad(codes.subAppPageTooDeep, { id: page.id });
    if (page.path !== '') {
      requirePlainPath(page.path, `pages[${index}].path`);
      // checked as written and as the router reads it (decoded)
      const under = (path: string) => path.startsWith(`/${basePath}/`) && isSameOriginPath(path) && !/[\s?#\\]/.test(path);
      if (!under(page.path) || !under(decodeURIComponent(page.path))) throw bad(codes.subAppPagePathOutside, { id: page.id, path: page.path, basePath });
    }
    for (const perm of page.funcRightPerms ?? []) {
      if (!functionCodes.includes(perm)) throw bad(codes.subAppFunctionCodeUnknown, { code: perm });
    }
    depthOf.set(page.id, depth);
  }
  return { ...manifest, entry, scriptOrigins, functionCodes };
}
