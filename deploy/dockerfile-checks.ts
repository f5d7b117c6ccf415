import { validate } from 'dockerfile-utils';

/**
 * No Docker engine runs where the tests run, so the image is checked as text: the syntax
 * through dockerfile-utils (the Docker language server's validator: unknown instructions and
 * flags, bad ports, duplicate stage names, …) and the properties the deployment relies on.
 */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string | undefined;
  from: string;
  instructions: Instruction[];
}

/** Instructions with continuation lines joined, comments and parser directives dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (pending && line.startsWith('#')) return;
    const continued = line.endsWith('\\');
    const part = continued ? line.slice(0, -1).trim() : line;
    pending = pending ? { text: `${pending.text} ${part}`, line: pending.line } : { text: part, line: index + 1 };
    if (continued) return;
    const [keyword = '', ...rest] = pending.text.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: pending.line });
    pending = undefined;
  });
  return instructions;
}

export function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.args.replace(/--platform=\S+\s*/, '').split(/\s+/);
      stages.push({ name: as?.toUpperCase() === 'AS' ? name : undefined, from, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** `A=1 B=2` (or the legacy `A 1`) of an ENV or ARG instruction. */
function variables(args: string): Record<string, string> {
  const tokens = args.split(/\s+/).filter(Boolean);
  if (!tokens[0]?.includes('=')) return { [tokens[0] ?? '']: tokens.slice(1).join(' ') };
  return Object.fromEntries(tokens.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

const secretName = /SECRET|TOKEN|PASSWORD|PASSWD|DATABASE_URL|REDIS_URL|SMTP_URL|PRIVATE_KEY|API_KEY/i;

export interface DockerfileExpectations {
  /** Workspaces of the root package.json: each manifest must be copied before `npm ci`. */
  workspaces: string[];
  /** The port the server listens on in the cluster (ConfigMap PORT). */
  port: number;
  /** The lowest Node.js major the engines field allows. */
  minNodeMajor: number;
}

export function dockerfileProblems(text: string, expect: DockerfileExpectations): string[] {
  const problems = validate(text).map((diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
  const instructions = parseDockerfile(text);
  const stages = stagesOf(instructions);
  const args = Object.assign({}, ...instructions.filter((i) => i.keyword === 'ARG').map((i) => variables(i.args))) as Record<string, string>;
  const resolve = (value: string) => value.replace(/\$\{?(\w+)\}?/g, (_, name: string) => args[name] ?? '');

  if (stages.length < 2) problems.push('not a multi-stage build: the runtime image must not carry the build tools');
  const runtime = stages.at(-1);
  if (!runtime) return [...problems, 'no FROM'];
  const inRuntime = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);

  // Base image: an official Node image whose major the engines field allows.
  for (const stage of stages) {
    const image = resolve(stage.from);
    const major = /^node:(\d+)/.exec(image)?.[1];
    if (!major) problems.push(`stage ${stage.name ?? '?'}: base image ${image || stage.from} is not a versioned node image`);
    else if (Number(major) < expect.minNodeMajor) problems.push(`stage ${stage.name ?? '?'}: Node ${major} is below engines (${expect.minNodeMajor})`);
  }

  // Dependencies: every workspace manifest before `npm ci`, dev dependencies only where building.
  for (const stage of stages) {
    const ci = stage.instructions.findIndex((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args));
    if (ci < 0) continue;
    const copied = stage.instructions
      .slice(0, ci)
      .filter((i) => i.keyword === 'COPY')
      .map((i) => i.args);
    for (const workspace of expect.workspaces) {
      if (!copied.some((args) => args.includes(`${workspace}/package.json`))) {
        problems.push(`stage ${stage.name ?? '?'}: ${workspace}/package.json is not copied before npm ci (the lockfile needs every workspace)`);
      }
    }
    if (!copied.some((args) => /\bpackage-lock\.json\b/.test(args))) problems.push(`stage ${stage.name ?? '?'}: npm ci without package-lock.json`);
  }
  if (!stages.some((stage) => stage.instructions.some((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args)))) {
    problems.push('no stage runs `npm run build`');
  }
  if (inRuntime('RUN').some((i) => /\bnpm (ci|install|i)\b/.test(i.args))) problems.push('the runtime stage installs packages itself');
  const runtimeCopies = inRuntime('COPY').map((i) => i.args);
  for (const needed of ['node_modules', 'apps/server/dist', 'apps/web/dist', 'apps/server/package.json']) {
    if (!runtimeCopies.some((args) => args.includes(needed))) problems.push(`the runtime stage does not copy ${needed}`);
  }
  for (const copy of runtimeCopies.filter((args) => args.includes('node_modules'))) {
    const source = /--from=(\S+)/.exec(copy)?.[1];
    const stage = stages.find((s) => s.name === source);
    const install = stage?.instructions.find((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args));
    if (!install || !/--omit=dev\b/.test(install.args)) problems.push(`node_modules of the runtime come from ${source ?? 'the context'}, not from an npm ci --omit=dev`);
  }

  // Runs as a user that is not root.
  const user = inRuntime('USER').at(-1)?.args.split(':')[0];
  if (!user || user === 'root' || user === '0') problems.push('the runtime stage runs as root: set a USER');

  // Health check on /readyz; the port exposed is the one the server listens on.
  const healthcheck = inRuntime('HEALTHCHECK').at(-1);
  if (!healthcheck || !healthcheck.args.includes('/readyz')) problems.push('no HEALTHCHECK on /readyz');
  const exposed = inRuntime('EXPOSE').flatMap((i) => i.args.split(/\s+/).map((port) => Number(port.split('/')[0])));
  if (!exposed.includes(expect.port)) problems.push(`port ${expect.port} is not EXPOSEd`);
  const env = Object.assign({}, ...inRuntime('ENV').map((i) => variables(i.args))) as Record<string, string>;
  if (env['PORT'] !== undefined && Number(env['PORT']) !== expect.port) problems.push(`ENV PORT=${env['PORT']} differs from ${expect.port}`);
  if (env['NODE_ENV'] !== 'production') problems.push('NODE_ENV is not production in the runtime stage');

  // The server as PID 1 in exec form, so SIGTERM reaches its handler.
  const cmd = inRuntime('CMD').at(-1)?.args;
  if (cmd !== '["node", "apps/server/dist/main.js"]') problems.push(`CMD must be ["node", "apps/server/dist/main.js"] (exec form), got ${cmd ?? 'none'}`);

  // No secret in any layer or build argument.
  for (const instruction of instructions.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')) {
    for (const name of Object.keys(variables(instruction.args))) {
      if (secretName.test(name)) problems.push(`line ${instruction.line}: ${instruction.keyword} ${name} bakes a secret into the image`);
    }
  }
  return problems;
}

/** Patterns the build context must leave out (.dockerignore). */
export function dockerignoreProblems(text: string): string[] {
  const lines = new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  );
  return ['**/node_modules', '**/dist', 'data', '.git', '**/.env'].filter((pattern) => !lines.has(pattern)).map((pattern) => `.dockerignore does not exclude ${pattern}`);
}
