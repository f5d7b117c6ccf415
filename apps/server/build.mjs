// Bundles the server and the workspace packages it imports (TypeScript sources) into
// dist/main.js (and dist/seed.js, dist/migrate.js, …); npm dependencies stay external. The SQL migrations are copied beside it.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies).filter((name) => !name.startsWith('@minside/'));

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts', seed: 'src/seed-main.ts', 'delivery-export': 'src/delivery-export-main.ts', 'delivery-notice': 'src/delivery-notice-main.ts', migrate: 'src/migrate-main.ts', 'billing-jobs': 'src/billing-jobs-main.ts', admin: 'src/admin-main.ts', 'seed-large': 'src/seed-large-main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
