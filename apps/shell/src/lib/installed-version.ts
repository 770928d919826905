import { apiPaths, shellVersion } from '@campus/contracts';
import { apiGetRaw } from './request.ts';

/**
 * The version of the build this shell came with (issue 48 item 3). A release names each build after its commit
 * (3.6.0.26112601+20261202.da68028) and its server says so (CheckVersion); the shell's own code knows only the
 * release line (shellVersion), so it takes the server's version when that is of its release line, and its own
 * when the server cannot say or is of another line.
 */
export async function installedVersion(): Promise<string> {
  try {
    const reply = await apiGetRaw<{ version?: unknown } | null>(apiPaths.versionCheck, undefined, { quiet: true });
    const version = reply.code % 10 === 0 ? reply.data?.version : undefined;
    return typeof version === 'string' && ofThisLine(version) ? version : shellVersion;
  } catch {
    return shellVersion;
  }
}

/** Whether a version is the shell's release line, or a build of it (the line, "+", what the build came from). */
export function ofThisLine(version: string): boolean {
  return version === shellVersion || version.startsWith(`${shellVersion}+`);
}
