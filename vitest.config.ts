import { defineConfig } from 'vitest/config';

// One Vitest run for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'titles', root: 'packages/titles', include: ['src/**/*.test.ts'] } },
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
      // Schema and consistency checks of the Dockerfile and the Kubernetes manifests.
      { test: { name: 'deploy', root: 'deploy', include: ['**/*.test.ts'], testTimeout: 30_000 } },
    ],
  },
});
