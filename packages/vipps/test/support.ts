/**
 * Test support: a hand-moved clock, a simulator listening on loopback with a client pointed at
 * it, a webhook receiver, and the contract check every test file runs over what the simulator
 * was asked and answered.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { HEADER, createVippsClient, idempotencyKeyProblem, matchOperation } from '../src/index.ts';
import type { Operation, VippsClient, VippsClientConfig } from '../src/index.ts';
import { createVippsSimulator } from '../src/simulator/index.ts';
import type { SimulatorRequest, VippsSimulator, VippsSimulatorOptions } from '../src/simulator/index.ts';

/** A Monday; tests never read the machine's clock. */
const START = '2026-03-02T09:00:00.000Z';

export interface ManualClock {
  (): Date;
  advance(ms: number): void;
  set(instant: string): void;
}

export function manualClock(instant: string = START): ManualClock {
  let at = new Date(instant).getTime();
  const clock = (() => new Date(at)) as ManualClock;
  clock.advance = (ms) => {
    at += ms;
  };
  clock.set = (next) => {
    at = new Date(next).getTime();
  };
  return clock;
}

export const DAY = 24 * 60 * 60 * 1000;

/** Where the shop sends a user back to; never fetched. */
export const shopUrl = 'https://minside.example/vipps/ferdig';

export const credentials = {
  clientId: 'fb492b5e-7907-4d83-ba20-c7fb60ca35de',
  clientSecret: 'Y8Kteew6GE2ZmeycEt6egg==',
  subscriptionKey: 'da7d5b0e18a84aeda961c0c31b75c2a9',
  merchantSerialNumbers: ['123456', '654321'],
};

export interface Rig {
  sim: VippsSimulator;
  clock: ManualClock;
  url: string;
  client(overrides?: Partial<VippsClientConfig>): VippsClient;
}

const open: VippsSimulator[] = [];

/** A simulator on 127.0.0.1:0; closed after the file's tests, its log checked against the contract first. */
export async function startRig(options: Partial<VippsSimulatorOptions> = {}): Promise<Rig> {
  const clock = manualClock();
  const sim = createVippsSimulator({ now: clock, credentials, webhookRetryDelaysMs: [20, 50], ...options });
  const url = await sim.listen();
  open.push(sim);
  return {
    sim,
    clock,
    url,
    client: (overrides = {}) =>
      createVippsClient({
        baseUrl: url,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        subscriptionKey: credentials.subscriptionKey,
        merchantSerialNumber: '123456',
        system: { name: 'minside', version: '1.0.0', pluginName: 'minside-vipps', pluginVersion: '0.0.0' },
        now: clock,
        retryDelaysMs: [10, 20],
        ...overrides,
      }),
  };
}

/** Registers the after-all hook that checks every answer of every simulator the file started, then closes them. */
export function closeRigsAfterAll(): void {
  afterAll(async () => {
    const simulators = open.splice(0);
    try {
      for (const sim of simulators) expectAnswersKeepContract(sim.requests);
    } finally {
      await Promise.all(simulators.map((sim) => sim.close()));
    }
  });
}

export interface Violation {
  request: string;
  problem: string;
}

/**
 * The simulator's answers against the operations table: the documented status (or a 4xx/5xx with
 * the API's Problem shape), the answer schema, and nothing the schema does not know (so the
 * simulator cannot drift into fields the contract does not have).
 */
export function answerViolations(requests: ReadonlyArray<SimulatorRequest>): Violation[] {
  const violations: Violation[] = [];
  for (const request of requests) {
    const label = `${request.method} ${request.path}`;
    const match = matchOperation(request.method, request.path.split('?')[0] ?? '');
    if (match === null) {
      violations.push({ request: label, problem: 'not an operation of the contract' });
      continue;
    }
    const { operation } = match;
    const response = request.response;
    if (response === undefined) continue; // held by a timeout fault: nothing was answered
    const success = response.status === operation.successStatus || operation.alsoSuccess.includes(response.status);
    if (response.status >= 200 && response.status < 300 && !success) {
      violations.push({ request: label, problem: `status ${response.status}, documented ${operation.successStatus}` });
      continue;
    }
    const schema = success ? operation.answer : operation.problem;
    if (schema === null) {
      if (response.body !== undefined) violations.push({ request: label, problem: 'a body where the contract has none' });
      continue;
    }
    const parsed = schema.safeParse(response.body);
    if (!parsed.success) {
      violations.push({ request: label, problem: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
    } else if (JSON.stringify(sortKeys(parsed.data)) !== JSON.stringify(sortKeys(response.body))) {
      violations.push({ request: label, problem: `fields the contract does not have: ${JSON.stringify(response.body)}` });
    }
  }
  return violations;
}

/** The requests themselves against the table: headers, Idempotency-Key, path parameters, body. */
export function requestViolations(requests: ReadonlyArray<SimulatorRequest>): Violation[] {
  const violations: Violation[] = [];
  for (const request of requests) {
    const label = `${request.method} ${request.path}`;
    const match = matchOperation(request.method, request.path.split('?')[0] ?? '');
    if (match === null) {
      violations.push({ request: label, problem: 'not an operation of the contract' });
      continue;
    }
    const { operation, params } = match;
    const header = (name: string) => request.headers[name.toLowerCase()];
    for (const problem of headerProblems(operation, header)) violations.push({ request: label, problem });
    for (const [name, schema] of Object.entries(operation.pathParams)) {
      if (!schema.safeParse(params[name]).success) violations.push({ request: label, problem: `path parameter ${name}` });
    }
    if (operation.request === null) {
      if (request.body !== undefined) violations.push({ request: label, problem: 'a body where the contract has none' });
    } else {
      const parsed = operation.request.safeParse(request.body);
      if (!parsed.success) violations.push({ request: label, problem: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
      if (!/json/.test(header('Content-Type') ?? '')) violations.push({ request: label, problem: 'Content-Type is not JSON' });
    }
  }
  return violations;
}

function headerProblems(operation: Operation, header: (name: string) => string | undefined): string[] {
  const problems: string[] = [];
  if (header(HEADER.subscriptionKey) === undefined) problems.push('no Ocp-Apim-Subscription-Key');
  if (operation.api === 'access-token') {
    if (header(HEADER.clientId) === undefined || header(HEADER.clientSecret) === undefined) problems.push('no client_id / client_secret');
  } else if (!/^Bearer \S+$/.test(header(HEADER.authorization) ?? '')) {
    problems.push('no Authorization: Bearer');
  }
  if (operation.merchantSerialNumber === 'required' && header(HEADER.merchantSerialNumber) === undefined) problems.push('no Merchant-Serial-Number');
  const rule = operation.idempotencyKey;
  if (rule !== null) {
    const key = header(HEADER.idempotencyKey);
    if (key === undefined) problems.push('no Idempotency-Key');
    else if (idempotencyKeyProblem(key, rule) !== null) problems.push(`Idempotency-Key ${idempotencyKeyProblem(key, rule) ?? ''}`);
  }
  return problems;
}

export function expectAnswersKeepContract(requests: ReadonlyArray<SimulatorRequest>): void {
  const violations = answerViolations(requests);
  if (violations.length > 0) throw new Error(`Answers that break the contract:\n${violations.map((v) => `${v.request}: ${v.problem}`).join('\n')}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, item]) => [key, sortKeys(item)]),
    );
  }
  return value;
}

interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answer with this status from now on (default 200), or with what the function says for the n-th request from now (1, 2, …). */
  answer(status: number | ((nth: number) => number)): void;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0 that keeps what it is sent (webhooks, and browsers sent back to a return URL). */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  let status: (nth: number) => number = () => 200;
  let since = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, raw, body: raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>) });
      response.writeHead(status(received.length - since)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      since = received.length;
      status = typeof next === 'number' ? () => next : next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let counter = 0;
/** A fresh ePayment reference / key for each use (unique within the run, no randomness needed). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}
