// Installs the Debian packages the tests need before npm dependencies exist (used by .ci/run).
import { ensureSystemDeps } from './system-deps.mjs';

ensureSystemDeps();
