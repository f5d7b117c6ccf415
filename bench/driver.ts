// The load generators. Both run off the main thread (bench/support.ts `drive`), so the server
// under test keeps the main thread's event loop to itself, as it would in production.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface DriverRequest {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A name for the report (`home`, `invoices`, …). */
  label: string;
}

export type DriverJob =
  /** Closed loop (autocannon): `connections` keep-alive connections, each sending its next request when the last answers. */
  | { kind: 'closed'; port: number; requests: DriverRequest[]; connections: number; durationS: number }
  /**
   * Open loop at a constant rate: request k is due at start + k / rate whatever the server is
   * doing, and its latency counts from that moment, so a stall shows in the percentiles instead
   * of slowing the sender down (no coordinated omission). Requests cycle through `requests`.
   */
  | { kind: 'open'; port: number; requests: DriverRequest[]; rate: number; durationS: number; maxSockets: number };

export interface DriverResult {
  requests: number;
  durationS: number;
  /** Answered 2xx per second. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Non-2xx answers, connection errors and timeouts together. */
  errors: number;
  /** Status or error name → count, for everything that was not 2xx. */
  errorKinds: Record<string, number>;
  /** Per label: requests and p99 (open loop only). */
  byLabel?: Record<string, { requests: number; p50: number; p99: number }>;
}

const round = (value: number) => Number(value.toFixed(2));

function percentile(sorted: Float64Array | number[], q: number): number {
  if (sorted.length === 0) return 0;
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}

/**
 * Closed loop with autocannon in its own worker thread (`workers: 1`; it would not report from
 * inside ours). Its latencies are whole milliseconds: this loop is for throughput.
 */
export async function closedLoop(job: Extract<DriverJob, { kind: 'closed' }>): Promise<DriverResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${job.port}`,
    workers: 1,
    connections: job.connections,
    duration: job.durationS,
    requests: job.requests.map(({ method, path, headers, body }) => ({ method, path, headers, ...(body === undefined ? {} : { body }) })),
  });
  const errorKinds: Record<string, number> = {};
  if (result.non2xx) errorKinds.non2xx = result.non2xx;
  if (result.errors) errorKinds.errors = result.errors;
  if (result.timeouts) errorKinds.timeouts = result.timeouts;
  const ok = result['2xx'];
  return {
    requests: ok,
    durationS: result.duration,
    rps: Math.round(ok / result.duration),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx + result.errors + result.timeouts,
    errorKinds,
  };
}

export async function openLoop(job: Extract<DriverJob, { kind: 'open' }>): Promise<DriverResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.maxSockets, maxFreeSockets: job.maxSockets });
  const total = Math.round(job.rate * job.durationS);
  const interval = 1000 / job.rate;
  const latencies = new Float64Array(total);
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  let finished = 0;
  let lastEnd = 0;
  let over = false;
  const answered = new Uint8Array(total);
  const start = performance.now() + 20;
  // A server far below the rate would keep the run going for minutes: what is not answered
  // within GRACE_MS after the last request was due counts as an error.
  const GRACE_MS = 5_000;

  return new Promise((resolve) => {
    const finish = () => {
      if (over) return;
      over = true;
      clearTimeout(deadline);
      agent.destroy();
      const elapsedS = (lastEnd - start) / 1000;
      const byLabel: NonNullable<DriverResult['byLabel']> = {};
      const perLabel = new Map<string, number[]>();
      latencies.forEach((value, k) => {
        const label = job.requests[k % job.requests.length]!.label;
        if (!perLabel.has(label)) perLabel.set(label, []);
        perLabel.get(label)!.push(value);
      });
      for (const [label, values] of perLabel) {
        values.sort((a, b) => a - b);
        byLabel[label] = { requests: values.length, p50: percentile(values, 0.5), p99: percentile(values, 0.99) };
      }
      const sorted = latencies.slice().sort();
      resolve({
        requests: total - errors,
        durationS: round(elapsedS),
        rps: Math.round((total - errors) / elapsedS),
        p50: percentile(sorted, 0.5),
        p90: percentile(sorted, 0.9),
        p99: percentile(sorted, 0.99),
        max: round(sorted[sorted.length - 1] ?? 0),
        errors,
        errorKinds,
        byLabel,
      });
    };
    const done = (k: number) => {
      answered[k] = 1;
      finished += 1;
      if (finished === total) finish();
    };
    const fail = (k: number, scheduled: number, kind: string) => {
      if (over || answered[k]) return;
      errors += 1;
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      lastEnd = performance.now();
      latencies[k] = lastEnd - scheduled;
      done(k);
    };
    const send = (k: number) => {
      const scheduled = start + k * interval;
      const { method, path, headers, body } = job.requests[k % job.requests.length]!;
      const request = http.request({ host: '127.0.0.1', port: job.port, method, path, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (over) return;
          if (status < 200 || status >= 300) return fail(k, scheduled, `${method} ${path.split('?')[0]} → ${status}`);
          lastEnd = performance.now();
          latencies[k] = lastEnd - scheduled;
          done(k);
        });
      });
      request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
      request.on('error', (error) => fail(k, scheduled, error.message));
      request.end(body);
    };
    const deadline = setTimeout(
      () => {
        const now = performance.now();
        for (let k = 0; k < total; k++) {
          if (answered[k]) continue;
          errors += 1;
          errorKinds['not answered in time'] = (errorKinds['not answered in time'] ?? 0) + 1;
          latencies[k] = now - (start + k * interval);
        }
        lastEnd = now;
        finish();
      },
      20 + job.durationS * 1000 + GRACE_MS,
    );
    let next = 0;
    const tick = () => {
      if (over) return;
      const now = performance.now();
      while (next < total && start + next * interval <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, Math.min(1, start + next * interval - now)));
    };
    setTimeout(tick, 20);
  });
}

if (parentPort && (workerData as DriverJob | undefined)?.kind === 'open') {
  parentPort.postMessage(await openLoop(workerData as Extract<DriverJob, { kind: 'open' }>));
}
