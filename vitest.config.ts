import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The packages' tests share one process per worker (isolate: false): they are plain functions of
 * their input with no module state, and a fresh process per file was half their CPU time — the
 * date sweep runs them eight times. (The one file that swaps a global, vipps' sdk.test.ts,
 * puts fetch back in its afterAll.)
 */
const packageProject = { isolate: false };

/** The projects defined here; the web app brings its own config (its Vite setup). */
const projects = [
  { test: { ...packageProject, name: 'titles', root: 'packages/titles', include: ['src/**/*.test.ts'] } },
  { test: { ...packageProject, name: 'bank-files', root: 'packages/bank-files', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
  { test: { ...packageProject, name: 'vipps', root: 'packages/vipps', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000 } },
  { test: { ...packageProject, name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
  {
    test: {
      name: 'server',
      root: 'apps/server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // The run's migrated databases that each test app copies (test/database-support.ts).
      globalSetup: ['test/database-global-support.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  // The repository's own rules: the lint config still forbids what it must (scripts/*.test.ts).
  { test: { name: 'repo', root: '.', include: ['scripts/*.test.ts'], testTimeout: 60_000 } },
  // Schema and consistency checks of the Dockerfile and the Kubernetes manifests.
  { test: { name: 'deploy', root: 'deploy', include: ['**/*.test.ts'], testTimeout: 30_000 } },
] satisfies (TestProjectInlineConfiguration & { test: { name: string } })[];

/** One date of the date sweep, as scripts/time-sweep.mjs passes it in MINSIDE_TIME_SWEEP. */
interface SweepDate {
  at: string;
  /** faketime's variables for the workers: their clock starts at `at` and runs on. */
  env: Record<string, string>;
  projects: string[];
  /** The server files to run at this date (in the server project), if any. */
  serverFiles?: string[];
}

/**
 * The date sweep in one run: the dated projects again, once per date, each copy's workers started
 * under faketime at its date (Vitest starts each worker with its project's `env`). One run keeps
 * both workers busy across all dates, where a run per date paid Vitest's start and its idle tail
 * eight times. The Vitest process itself keeps the real clock; only the test code's is faked.
 */
function sweepProjects(dates: SweepDate[]): TestProjectInlineConfiguration[] {
  return dates.flatMap((date) =>
    projects
      .filter((project) => date.projects.includes(project.test.name) || (project.test.name === 'server' && date.serverFiles))
      .map((project) => ({
        ...project,
        test: {
          ...project.test,
          name: `${project.test.name} @ ${date.at}`,
          env: date.env,
          ...(project.test.name === 'server' ? { include: date.serverFiles ?? [] } : {}),
        },
      })),
  );
}

const sweep = process.env.MINSIDE_TIME_SWEEP ? (JSON.parse(process.env.MINSIDE_TIME_SWEEP) as SweepDate[]) : undefined;

// One Vitest run for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine. The
    // server files spend much of their time waiting for PostgreSQL, Redis and the server
    // processes they start, so two workers overlap those waits (each file has its own
    // scratch database, so files do not share state).
    maxWorkers: 2,
    projects: sweep ? sweepProjects(sweep) : [...projects, 'apps/web/vitest.config.ts'],
  },
});
