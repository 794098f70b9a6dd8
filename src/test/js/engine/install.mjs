// Installs this folder's npm dependencies exactly as package-lock.json says (npm ci), but only when
// node_modules does not already match it, so that repeated test runs stay fast (as web/scripts/install.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const lock = `${here}/package-lock.json`;
const installed = `${here}/node_modules/.package-lock.json`;

const upToDate = existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs;
if (upToDate) {
  console.log('engine clients: node_modules matches package-lock.json');
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
}
