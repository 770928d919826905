// @ts-expect-error: a plain script without type declarations
import { wineLabProblem } from '../../../../scripts/wine-lab/wine-root.mjs';
import { vpcdPort as hostLabVpcdPort } from '../support/pcsc-lab.ts';
import { describeDownloadScenario, freePort } from './support/download-scenario.ts';
import { WinePlatform } from './support/wine-platform.ts';

// card-issuer-win-x64.zip as `node scripts/build-issuer.mjs` builds it, under Wine 10 in the cached Debian 13 root
// (made once per machine, about 2 minutes), against the root's pcscd and virtual cards. Skipped, with the reason as
// the suite's name, where the Wine lab cannot run (not root, not Linux x64).
const problem = (wineLabProblem as () => string | null)();

/** A port of this run for the root's vpcd, which listens on the host's network: not the host PC/SC lab's. */
async function vpcdPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== hostLabVpcdPort) return port;
  }
}

describeDownloadScenario('the Windows download under Wine 10 on a PC/SC reader', problem && `skipped: ${problem}`, async () => WinePlatform.open(await vpcdPort()), { sealedDeviceKey: true });
