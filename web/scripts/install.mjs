// Installs a folder's npm dependencies exactly as its package-lock.json says (npm ci), but only when
// node_modules does not already match it, so that repeated Maven builds and test runs stay fast.
// The folder is web/ itself, or the one given as the first argument (src/test/js/engine: the engine's
// outside checks, dynalite and the AWS SDK for JavaScript v3).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));
const lock = `${folder}/package-lock.json`;
const installed = `${folder}/node_modules/.package-lock.json`;

const upToDate = existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs;
if (upToDate) {
  console.log(`${folder}: node_modules matches package-lock.json`);
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'inherit' });
}
