import { pcscLabProblem } from '../support/pcsc-lab.ts';
import { describeDownloadScenario } from './support/download-scenario.ts';
import { LinuxPlatform } from './support/linux-platform.ts';

// card-issuer-linux-x64.tar.gz as `node scripts/build-issuer.mjs` builds it, started with its ./start.sh against the
// host's pcscd with the PC/SC lab's virtual reader and cards. Skipped, with the reason as the suite's name, where
// the lab cannot run (not root, packages missing, another pcscd running).
const problem = process.platform !== 'linux' || process.arch !== 'x64' ? 'skipped: the Linux download is for Linux x64' : await pcscLabProblem();

describeDownloadScenario('the Linux download on a PC/SC reader', problem, () => LinuxPlatform.open());
