import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { IConfigMap } from 'kubernetes-models/v1';
import { dockerfileProblems, dockerignoreProblems, parseDockerfile, stagesOf, type DockerfileExpectations } from './dockerfile-checks.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

const rootPackage = JSON.parse(read('package.json')) as { workspaces: string[]; engines: { node: string } };
const configMap = parse(read('deploy/kubernetes/configmap.yaml')) as IConfigMap;
const expectations: DockerfileExpectations = {
  workspaces: rootPackage.workspaces,
  port: Number(configMap.data?.['PORT']),
  minNodeMajor: Number(/(\d+)/.exec(rootPackage.engines.node)?.[1]),
};
const dockerfile = read('Dockerfile');

describe('Dockerfile', () => {
  it('lints clean and has what the deployment relies on', () => {
    expect(expectations.port).toBe(3000);
    expect(dockerfileProblems(dockerfile, expectations)).toEqual([]);
  });

  it('builds in one stage and runs from another, on Node 24 LTS', () => {
    const stages = stagesOf(parseDockerfile(dockerfile));
    expect(stages.map((stage) => stage.name)).toEqual(['build', 'prod-deps', 'runtime']);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
  });

  it('the build context leaves out local installs, builds, data and secrets', () => {
    expect(dockerignoreProblems(read('.dockerignore'))).toEqual([]);
    expect(dockerignoreProblems('node_modules\n')).toHaveLength(5);
  });

  it('finds the problems of a careless Dockerfile', () => {
    const careless = [
      'FROM node:18',
      'WORKDIR /app',
      'ENV DATABASE_URL=postgres://minside:hunter2@db/minside',
      'COPY . .',
      'RUN npm install && npm run build',
      'EXPOSE 8080',
      'HEALTHCHEK CMD curl -f http://localhost:3000/healthz',
      'CMD npm start',
    ].join('\n');
    const problems = dockerfileProblems(careless, expectations).join('\n');
    expect(problems).toContain('not a multi-stage build');
    expect(problems).toContain('Node 18 is below engines (24)');
    expect(problems).toContain('runs as root');
    expect(problems).toContain('no HEALTHCHECK on /readyz');
    expect(problems).toContain('port 3000 is not EXPOSEd');
    expect(problems).toContain('ENV DATABASE_URL bakes a secret into the image');
    expect(problems).toContain('CMD must be');
    expect(problems).toContain('NODE_ENV is not production');
    // The linter's own finding: the misspelt instruction.
    expect(problems).toMatch(/line 7: Unknown instruction: HEALTHCHEK/);
  });

  it('notices a workspace whose manifest is not copied before npm ci', () => {
    const problems = dockerfileProblems(dockerfile, { ...expectations, workspaces: [...expectations.workspaces, 'packages/new'] });
    expect(problems).toEqual([
      'stage build: packages/new/package.json is not copied before npm ci (the lockfile needs every workspace)',
      'stage prod-deps: packages/new/package.json is not copied before npm ci (the lockfile needs every workspace)',
    ]);
  });
});
