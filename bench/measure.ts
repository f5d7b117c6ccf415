// What the job benchmarks (bank.ts, jobs.ts) share: a measurement runs in a child process of its
// own, so its peak RSS (`process.resourceUsage().maxRSS`, the kernel's high-water mark) is its own;
// the child prints one JSON line (ChildReport) on stdout; a CPU profile of it can be summarised by area.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface ChildReport {
  seconds: number;
  maxRssMb: number;
  startRssMb: number;
  peakHeapMb: number;
  phases: Record<string, number>;
  result: Record<string, unknown>;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
export const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** Samples the heap while `work` runs; reports peak RSS (the kernel's high-water mark) at the end. */
export async function measured(work: (phase: (name: string) => void) => Promise<Record<string, unknown>>): Promise<ChildReport> {
  const startRss = process.memoryUsage().rss;
  let peakHeap = 0;
  const trace = process.env.TRACE_MEMORY === '1';
  let ticks = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    if (trace && ++ticks % 20 === 0) {
      // With --expose-gc (TRACE_MEMORY=1 passes it): the live heap, not the garbage not yet collected.
      (globalThis as { gc?: () => void }).gc?.();
      const live = process.memoryUsage();
      console.error(`live heap ${mb(live.heapUsed)} MB, rss ${mb(live.rss)} MB`);
    }
  }, 100);
  const started = performance.now();
  const phases: Record<string, number> = {};
  let last = started;
  const phase = (name: string) => {
    const at = performance.now();
    phases[name] = round((phases[name] ?? 0) + (at - last) / 1000);
    last = at;
  };
  let result: Record<string, unknown>;
  try {
    result = await work(phase);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  return { seconds: round(seconds), maxRssMb: round(process.resourceUsage().maxRSS / 1024, 1), startRssMb: mb(startRss), peakHeapMb: mb(peakHeap), phases, result };
}

export interface ChildOptions {
  /** Caps the child's V8 old space (MB), and its semi-spaces at 4 MB; 0: Node's default. */
  heapMb: number;
  /** Writes a V8 CPU profile of the child into this folder. */
  profileDir: string | null;
  /** Extra environment for the child. */
  env?: Record<string, string>;
}

/** Runs `script child …args` under tsx and resolves with the ChildReport it printed last. */
export function runChild(script: string, args: string[], options: ChildOptions): Promise<ChildReport> {
  const { heapMb, profileDir } = options;
  const flags = [
    '--import',
    'tsx',
    ...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=4'] : []),
    ...(process.env.TRACE_MEMORY === '1' ? ['--expose-gc'] : []),
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, script, 'child', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...options.env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`child ${args[0]} exited with ${code ?? signal}: ${out.trim().split('\n').at(-1) ?? ''}`));
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve(JSON.parse(last) as ChildReport);
    });
  });
}

/** One connection for the parent's own statements (scratch databases, set-up, checks). */
export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Self time of a V8 CPU profile by where the code lives: what a job spends its CPU on. `areas`
 * names the job's own code first (a part of the path, and its label); the rest is bucketed alike
 * for every job.
 */
export function profileSummary(dir: string, areas: [string, string][] = []): Record<string, unknown> {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return {};
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const bucketOf = (url: string, name: string) => {
    if (name === '(idle)') return 'idle (waiting for PostgreSQL or the disk)';
    if (name === '(garbage collector)') return 'garbage collector';
    if (name === '(program)') return 'V8/Node native';
    if (url === '') return `native ${name}`;
    for (const [part, label] of areas) if (url.includes(part)) return `${label} ${path.basename(url)}`;
    if (url.includes('/apps/server/src/')) return `server ${path.basename(url)}`;
    if (url.includes('/tsx/') || url.startsWith('node:internal/modules')) return 'loading modules (tsx, once)';
    if (url.includes('/packages/domain/')) return 'domain (KIDs, dates)';
    if (url.includes('drizzle-orm')) return 'drizzle-orm';
    if (/node_modules\/pg(-[a-z]+)?\//.test(url)) return 'pg driver';
    if (url.startsWith('node:')) return 'node internals (streams, fs, net)';
    return 'other';
  };
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { url, functionName, lineNumber } = node.callFrame;
    const bucket = bucketOf(url, functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + micros);
    const key = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + micros);
  }
  const share = (entries: Map<string, number>, top: number) =>
    Object.fromEntries(
      [...entries]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([key, micros]) => [key, `${round((100 * micros) / total, 1)} %`]),
    );
  return { seconds: round(total / 1e6), byArea: share(buckets, 14), topFunctions: share(functions, 12) };
}

/**
 * The benchmark's measurements, each run by `attempt`: one that fails is reported as such and the
 * others still run; `failed` counts them (with `fail()` for a check that fails), for the exit code.
 */
export function createMeasurements() {
  let failed = 0;
  return {
    async attempt<T>(label: string, measure: () => Promise<T>): Promise<T | { failed: string; error: string }> {
      console.error(`${label}…`);
      try {
        const result = await measure();
        console.error(JSON.stringify(result));
        return result;
      } catch (error) {
        failed += 1;
        console.error(error);
        return { failed: label, error: (error as Error).message };
      }
    },
    fail(): void {
      failed += 1;
    },
    get failed(): number {
      return failed;
    },
  };
}
