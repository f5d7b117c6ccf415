// Bundles the server and the workspace packages it imports (TypeScript sources) into
// dist/main.js (and dist/seed.js, dist/migrate.js, …); npm dependencies stay external. The SQL migrations are copied beside it.
// One entry per process in src/bin/ (see src/bin/README.md). The output names are what
// package.json, the Dockerfile, deploy/, the tests and scripts/ run, so they stay as they are:
// src/bin/server.ts still becomes dist/main.js.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
// ssh2 (under ssh2-sftp-client, the bank's SFTP) loads optional native addons at run time
// (cpu-features, its own sshcrypto.node) and falls back to plain JavaScript without them; it
// must be loaded from node_modules as it is, never bundled, even should it become a direct import.
const external = [...Object.keys(dependencies).filter((name) => !name.startsWith('@minside/')), 'ssh2', 'cpu-features', '*.node'];

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/bin/server.ts',
    seed: 'src/bin/seed.ts',
    'seed-large': 'src/bin/seed-large.ts',
    migrate: 'src/bin/migrate.ts',
    admin: 'src/bin/admin.ts',
    'billing-jobs': 'src/bin/billing-jobs.ts',
    'delivery-export': 'src/bin/delivery-export.ts',
    'delivery-notice': 'src/bin/delivery-notice.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
