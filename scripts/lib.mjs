// Small helpers shared by the start, dev and test scripts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time below the given paths (files only; node_modules and dist skipped). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry === 'node_modules' || entry === 'dist') continue;
        visit(path.join(p, entry));
      }
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const p of paths) visit(path.resolve(root, p));
  return newest;
}

/** True when `output` is missing or older than anything under `inputs`. */
export function isStale(output, inputs) {
  const out = path.resolve(root, output);
  return !existsSync(out) || statSync(out).mtimeMs < newestMtime(inputs);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

export const webInputs = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/public', 'packages/domain/src'];
export const serverInputs = ['apps/server/src', 'apps/server/build.mjs', 'packages/domain/src', 'packages/titles/src', 'packages/titles/data'];
