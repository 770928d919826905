// app/service-install.mjs, run by install-service.cmd and uninstall-service.cmd in the Windows download (as
// administrator): installs the card issuer as the Windows service CampusCardIssuer, or removes it.
//
// install: copies node.exe and app\ to %ProgramFiles%\CampusCardIssuer (a LocalSystem service must not run code from
// a folder its users can write, such as Downloads), makes the data folder %ProgramData%\CampusCardIssuer for SYSTEM
// and Administrators only, writes settings.txt from the issuer's variables set in this console (once), then
//   sc create CampusCardIssuer binPath= "\"<program>\node.exe\" \"<program>\app\service.mjs\"" start= auto DisplayName= ...
//   sc description CampusCardIssuer ...
//   sc failure CampusCardIssuer reset= 86400 actions= restart/5000/restart/10000/restart/30000
//   sc start CampusCardIssuer
// and waits until it runs. uninstall: sc stop, wait until stopped, sc delete, removes the program folder, keeps the
// data folder (the device key the server trusts). Both say so and change nothing when there is nothing to do.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Localised } from '@campus/contracts';
import { localDeviceServicePort } from '@campus/contracts';
import { detectPcLanguage, pcLanguage } from '../pc-language.ts';
import { serviceMessages } from './service-messages.ts';
import { serviceDataDir, serviceDescription, serviceDisplayName, serviceFiles, serviceName, serviceProgramDir } from './service-names.ts';
import type { ServiceStateName } from './service-names.ts';
import { settingsFile } from './service-settings.ts';
import type * as ServiceControlModule from './service-control.ts';

type ServiceControl = typeof ServiceControlModule;

export const failureActions = ['reset=', '86400', 'actions=', 'restart/5000/restart/10000/restart/30000'];

const appDir = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.dirname(appDir);
const system32 = path.win32.join(process.env.SystemRoot?.trim() || 'C:\\Windows', 'System32');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let language: keyof Localised = 'en-US';
const say = (message: Localised) => process.stdout.write(`${message[language]}\n`);

class InstallFailure extends Error {}

/** Runs a tool of Windows' own (sc.exe, icacls.exe) from System32; its output when it fails. */
function tool(exe: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(path.win32.join(system32, exe), args, { encoding: 'utf8', windowsHide: true });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/\s+/g, ' ').trim();
  return { ok: result.status === 0 && !result.error, output: result.error ? result.error.message : output || `exit code ${result.status}` };
}

function sc(args: string[]): void {
  const run = tool('sc.exe', args);
  if (!run.ok) {
    say(serviceMessages.commandFailed(`sc ${args.join(' ')}`, run.output));
    throw new InstallFailure();
  }
}

async function waitFor(control: ServiceControl, wanted: (state: ServiceStateName | null) => boolean, seconds: number): Promise<ServiceStateName | null> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const query = control.queryService(serviceName);
    const state = query.installed ? query.state : null;
    if (wanted(state) || Date.now() > until) return state;
    await sleep(250);
  }
}

function copyProgram(programDir: string): void {
  if (path.resolve(packageDir).toLowerCase() === path.resolve(programDir).toLowerCase()) return;
  say(serviceMessages.copying(programDir));
  fs.rmSync(programDir, { recursive: true, force: true });
  fs.mkdirSync(programDir, { recursive: true });
  fs.copyFileSync(process.execPath, path.win32.join(programDir, 'node.exe'));
  fs.cpSync(appDir, path.win32.join(programDir, 'app'), { recursive: true });
  const readme = path.win32.join(packageDir, 'README.txt');
  if (fs.existsSync(readme)) fs.copyFileSync(readme, path.win32.join(programDir, 'README.txt'));
}

function prepareDataDir(dataDir: string): void {
  fs.mkdirSync(path.win32.join(dataDir, 'logs'), { recursive: true });
  // the device key is sealed for this PC (DPAPI, machine scope): the folder's ACL keeps this PC's other users out
  const acl = tool('icacls.exe', [dataDir, '/inheritance:r', '/grant:r', '*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F']);
  if (acl.ok) say(serviceMessages.dataFolder(dataDir));
  else say(serviceMessages.aclFailed(dataDir, acl.output));
  const { settings } = serviceFiles(dataDir);
  if (fs.existsSync(settings)) {
    say(serviceMessages.settingsKept(settings));
    return;
  }
  fs.writeFileSync(settings, settingsFile(process.env));
  say(serviceMessages.settingsWritten(settings));
}

async function install(control: ServiceControl): Promise<number> {
  const query = control.queryService(serviceName);
  const programDir = serviceProgramDir();
  if (query.installed) {
    say(serviceMessages.alreadyInstalled(query.state, programDir));
    return 0;
  }
  copyProgram(programDir);
  const dataDir = serviceDataDir();
  prepareDataDir(dataDir);
  const node = path.win32.join(programDir, 'node.exe');
  const script = path.win32.join(programDir, 'app', 'service.mjs');
  sc(['create', serviceName, 'binPath=', `"${node}" "${script}"`, 'start=', 'auto', 'DisplayName=', serviceDisplayName[language]]);
  sc(['description', serviceName, serviceDescription[language]]);
  sc(['failure', serviceName, ...failureActions]);
  sc(['start', serviceName]);
  const state = await waitFor(control, (now) => now === 'running' || now === 'stopped', 60);
  const { log } = serviceFiles(dataDir);
  if (state !== 'running') {
    say(serviceMessages.notRunningYet(state ?? 'stopped', log));
    return 1;
  }
  say(serviceMessages.installed(`http://127.0.0.1:${localDeviceServicePort}/reader`, log));
  return 0;
}

async function uninstall(control: ServiceControl): Promise<number> {
  const query = control.queryService(serviceName);
  if (!query.installed) {
    say(serviceMessages.notInstalled());
    return 0;
  }
  if (query.state !== 'stopped') {
    say(serviceMessages.stopping());
    if (query.state !== 'stopPending') tool('sc.exe', ['stop', serviceName]);
    const stopWait = 30;
    if ((await waitFor(control, (now) => now === 'stopped' || now === null, stopWait)) !== 'stopped') say(serviceMessages.stopTimedOut(stopWait));
  }
  sc(['delete', serviceName]);
  await waitFor(control, (now) => now === null, 10);
  const programDir = serviceProgramDir();
  const runningFromProgramDir = path.resolve(process.execPath).toLowerCase().startsWith(`${path.resolve(programDir).toLowerCase()}\\`);
  if (runningFromProgramDir) say(serviceMessages.programDirLeft(programDir, 'this uninstaller runs from it'));
  else {
    try {
      fs.rmSync(programDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
    } catch (error) {
      say(serviceMessages.programDirLeft(programDir, error instanceof Error ? error.message : String(error)));
    }
  }
  say(serviceMessages.uninstalled(serviceDataDir()));
  return 0;
}

async function main(): Promise<number> {
  const command = process.argv[2]?.toLowerCase();
  language = pcLanguage();
  if (process.platform !== 'win32') {
    say(serviceMessages.notWindows());
    return 1;
  }
  const control = await import('./service-control.ts');
  language = await detectPcLanguage();
  if (command === 'status') {
    const query = control.queryService(serviceName);
    say(serviceMessages.status(query.installed ? query.state : null));
    return 0;
  }
  if (command !== 'install' && command !== 'uninstall') {
    say(serviceMessages.usage());
    return 2;
  }
  if (!control.canManageServices()) {
    say(serviceMessages.notAdministrator(`${command}-service.cmd`));
    return 5;
  }
  try {
    return command === 'install' ? await install(control) : await uninstall(control);
  } catch (error) {
    if (error instanceof InstallFailure) return 1;
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
