// app/service.mjs: what the Windows service CampusCardIssuer runs (node.exe app\service.mjs, as LocalSystem). It
// reports to the Service Control Manager and supervises the issuer (app/card-issuer.mjs) as a child process, whose
// output goes with its own lines to <data>\logs\issuer.log. A crash of this process itself is the SCM's to handle:
// the installer sets its failure actions (restart after 5, 10 and 30 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellVersion } from '@campus/contracts';
import { detectPcLanguage } from '../pc-language.ts';
import { RotatingLog } from './rotating-log.ts';
import { serviceMessages } from './service-messages.ts';
import { serviceDataDir, serviceFiles, serviceName } from './service-names.ts';
import { parseSettings } from './service-settings.ts';
import { IssuerSupervisor } from './supervisor.ts';

async function main(): Promise<void> {
  const dataDir = serviceDataDir();
  const files = serviceFiles(dataDir);
  const log = new RotatingLog(files.log);
  const language = await detectPcLanguage();
  const say = (message: Record<typeof language, string>) => message[language];
  // a service has no console: whatever would go to stdout or stderr goes to the log instead
  const fail = (error: unknown) => {
    log.line('service', say(serviceMessages.serviceFailed(error instanceof Error ? (error.stack ?? error.message) : String(error))));
    log.close();
    process.exit(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);

  const issuerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'card-issuer.mjs');
  const issuerEnv = () => {
    let text = '';
    try {
      text = fs.readFileSync(files.settings, 'utf8');
    } catch {
      // no settings.txt: the issuer's defaults
    }
    const settings = parseSettings(text);
    for (const { line, problem } of settings.problems) log.line('service', say(serviceMessages.settingsIgnored(line, problem)));
    return { ...process.env, ...settings.env, CARD_ISSUER_DATA_DIR: dataDir };
  };
  const supervisor = new IssuerSupervisor({
    spawnIssuer: () => spawn(process.execPath, [issuerScript], { env: issuerEnv(), cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], windowsHide: true }),
    log,
    say,
  });

  const { runAsService } = await import('./service-control.ts');
  const outcome = await runAsService(serviceName, {
    start: async () => {
      log.line('service', say(serviceMessages.serviceStarting(shellVersion, process.pid, dataDir, files.settings)));
      await supervisor.start();
    },
    stop: async (reason) => {
      log.line('service', say(serviceMessages.stopRequested(reason)));
      await supervisor.stop();
    },
    log: (text) => log.line('service', text),
  });
  if (outcome === 'not-a-service') {
    log.close();
    // started by hand: say why nothing happens (a console has an stdout; ignore it when there is none)
    try {
      process.stderr.write(`${say(serviceMessages.notAService())}\n`);
    } catch {
      // no console
    }
    process.exit(1);
  }
  log.line('service', say(serviceMessages.serviceStopped()));
  log.close();
  process.exit(0);
}

void main();
