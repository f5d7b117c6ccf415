// Installs Lighthouse into this folder on first use. It is a benchmark tool with ~200
// packages of its own that neither `npm start` nor `npm test` needs, so it is kept out of the
// workspace: the project's `npm install` / `npm ci` (and CI) stay lean, and the version is
// still pinned by this folder's package-lock.json. (package.json's `overrides` pin the two
// packages that @paulirish/trace_engine asks for as "latest": without them `npm ci` rejects
// the lock whenever a newer version is published.)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const lock = JSON.parse(readFileSync(path.join(here, 'package-lock.json'), 'utf8'));
const wanted = lock.packages['node_modules/lighthouse']?.version;
const installedFile = path.join(here, 'node_modules/lighthouse/package.json');
const installed = existsSync(installedFile) ? JSON.parse(readFileSync(installedFile, 'utf8')).version : undefined;

if (installed !== wanted) {
  console.log(`Installing lighthouse ${wanted} into bench/lighthouse (first use)…`);
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
