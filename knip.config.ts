import type { KnipConfig } from 'knip';

// Dead code, unused dependencies and unlisted ones (issue 26.5): `npm run knip`, a step of
// `npm test` (scripts/test.mjs), kept at zero findings. Knip's own plugins find the entries that
// tools start from (Vite's index.html, the Vitest and Playwright configs and their tests, the
// server's esbuild entries, drizzle's config); only what no tool names is listed here.
const config: KnipConfig = {
  workspaces: {
    '.': {
      // The repository's scripts (npm scripts, CI, and each other) and the deploy checks.
      entry: ['scripts/*.mjs', 'deploy/**/*.ts'],
      project: ['scripts/**/*.{mjs,ts}', 'deploy/**/*.ts', '*.{js,mjs,ts}'],
      // System tools the scripts run: Debian's faketime (the date sweep) and kubectl (manifest checks, when present).
      ignoreBinaries: ['faketime', 'kubectl'],
      // vitest.config.ts names the server project's global setup relative to that project's root (apps/server).
      ignoreUnresolved: ['test/database-global-support.ts'],
    },
    'apps/server': {
      // One process per file in src/bin/ (build.mjs bundles them).
      entry: ['src/bin/*.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts', '*.{mjs,ts}'],
      // The bundle leaves npm packages external by this package.json; the domain's
      // @minside/domain/holidays imports date-holidays, so it must be installed beside the bundle.
      ignoreDependencies: ['date-holidays'],
    },
    'apps/web': {
      // Reached through a Vite alias (vite.config.ts): `zod` → lib/zod.ts.
      // The server render's entry is built by `vite build --ssr` (package.json) and loaded by the server (ADR 032).
      entry: ['src/lib/zod.ts', 'src/entry-server.tsx'],
      project: ['src/**/*.{ts,tsx}', '*.ts'],
    },
    'packages/bank-files': {
      project: ['src/**/*.ts', 'test/**/*.ts'],
    },
    'packages/vipps': {
      project: ['src/**/*.ts', 'test/**/*.ts'],
    },
    'packages/titles': {
      project: ['src/**/*.ts'],
    },
    'packages/domain': {
      project: ['src/**/*.ts'],
      includeEntryExports: true,
    },
    e2e: {
      project: ['**/*.ts'],
    },
    bench: {
      // Each benchmark is started on its own (package.json scripts, run.mjs).
      entry: ['*.{ts,mjs}'],
      project: ['*.{ts,mjs}'],
    },
    // Not an npm workspace: Lighthouse is installed into it on first use (ensure-installed.mjs).
    'bench/lighthouse': {
      entry: ['*.{ts,mjs}'],
      project: ['*.{ts,mjs}'],
    },
  },
};

export default config;
