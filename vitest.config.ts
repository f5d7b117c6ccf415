import { defineConfig } from 'vitest/config';

// One Vitest run for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine. The
    // server files spend much of their time waiting for PostgreSQL, Redis and the server
    // processes they start, so two workers overlap those waits (each file has its own
    // scratch database, so files do not share state).
    maxWorkers: 2,
    projects: [
      { test: { name: 'titles', root: 'packages/titles', include: ['src/**/*.test.ts'] } },
      { test: { name: 'bank-files', root: 'packages/bank-files', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      { test: { name: 'vipps', root: 'packages/vipps', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
      // The repository's own rules: the lint config still forbids what it must (scripts/*.test.ts).
      { test: { name: 'repo', root: '.', include: ['scripts/*.test.ts'], testTimeout: 60_000 } },
      // Schema and consistency checks of the Dockerfile and the Kubernetes manifests.
      { test: { name: 'deploy', root: 'deploy', include: ['**/*.test.ts'], testTimeout: 30_000 } },
    ],
  },
});
