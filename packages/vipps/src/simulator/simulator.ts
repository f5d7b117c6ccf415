/**
 * The simulator's core: HTTP, the gateway's checks (subscription key, bearer token, merchant
 * serial number, `Vipps-System-*`), Idempotency-Key, request validation against the operations
 * table, the three Problem shapes, faults, the request log, and the landing page. The business
 * rules live in the areas (epayment.ts, recurring.ts, webhooks.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEADER, Msn, SYSTEM_HEADERS, SYSTEM_HEADER_MAX_LENGTH, idempotencyKeyProblem } from '../contract/common.ts';
import { matchOperation } from '../contract/operations.ts';
import type { Operation, OperationMatch, VippsApi } from '../contract/operations.ts';
import { RECURRING_PROBLEM_TYPE_PREFIX } from '../contract/recurring.ts';
import { createEpaymentArea } from './epayment.ts';
import type { EpaymentRequest } from './epayment.ts';
import { LANDING_CSP, LANDING_PATH, agreementPage, messagePage, paymentPage } from './landing.ts';
import type { LandingAction } from './landing.ts';
import { createRecurringArea } from './recurring.ts';
import type { RecurringRequest, RestoredAgreement } from './recurring.ts';
import { Refusal, canonicalJson, traceId } from './support.ts';
import type { Answer } from './support.ts';
import { createWebhooksArea } from './webhooks.ts';
import type { WebhookDelivery, WebhookKnobs, WebhooksRequest } from './webhooks.ts';

export interface VippsSimulatorOptions {
  now: () => Date;
  credentials: { clientId: string; clientSecret: string; subscriptionKey: string; merchantSerialNumbers: string[] };
  /** Where browsers reach the simulator (the landing page links); defaults to its listen URL. */
  publicUrl?: string;
  /** The name the landing page shows for a merchant serial number, as the real one shows the sales unit's name; default the number. */
  merchantNames?: Readonly<Record<string, string>>;
  /** How webhooks are sent; default globalThis.fetch. */
  deliver?: typeof fetch;
  /** Recurring charges must be due at least this many days ahead (2 in production, 1 in test); default 1. */
  chargeLeadDays?: number;
  /**
   * ePayment: a CREATED payment expires after this long without an answer; default 5 minutes, the
   * landing page's and deeplink's validity in vipps-developers `common-topics/timeouts.md` (the
   * user then has 5 more minutes in the app, 10 in all; the simulator has no "logged in" step).
   */
  paymentExpiryMs?: number;
  /** Recurring: a PENDING agreement expires after this long; default 10 minutes (the guide). */
  agreementExpiryMs?: number;
  /** Access tokens live this long; default one hour (the test environment; production: 24 hours). */
  tokenLifetimeMs?: number;
  /** Pauses between the attempts of a webhook that is not answered 2xx; default [100, 500, 2000]. */
  webhookRetryDelaysMs?: readonly number[];
}

export type FaultKind = 'timeout' | 'server-error' | 'expired-token' | 'rate-limited';

export interface FaultOptions {
  /** How many matching requests get the fault; default 1. */
  count?: number;
  method?: string;
  /**
   * Only requests whose path starts with this. Without it a fault matches every API request but
   * the token fetch (name `/accesstoken` to aim at that).
   */
  pathPrefix?: string;
  /** For `server-error`: the status to answer, default 500. */
  status?: number;
}

export interface SimulatorRequest {
  readonly method: string;
  /** Path and query as asked. */
  readonly path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  /** Parsed JSON, the text if it is not JSON, undefined if empty. */
  readonly body: unknown;
  /** The answer as sent; undefined while pending, and for ever for a request held by a timeout. */
  response: { readonly status: number; readonly body: unknown } | undefined;
}

export interface VippsSimulator {
  /** Resolves to its base URL; port 0 and host 127.0.0.1 by default. */
  listen(port?: number, host?: string): Promise<string>;
  /** To mount in another node:http server. */
  handler: (request: IncomingMessage, response: ServerResponse) => void;
  close(): Promise<void>;
  readonly url: string;
  approve(reference: string): void;
  reject(reference: string): void;
  expire(reference: string): void;
  approveAgreement(agreementId: string): void;
  rejectAgreement(agreementId: string): void;
  /** The user stops an ACTIVE agreement in the Vipps app. */
  stopAgreement(agreementId: string): void;
  /**
   * Seeds an ACTIVE agreement an earlier run approved (the simulator keeps its state in memory):
   * the same id and terms, for the first merchant unless `merchantSerialNumber` names another; no
   * webhook, no charge. Throws on an id it already has.
   */
  restoreAgreement(agreement: RestoredAgreement & { merchantSerialNumber?: string }): void;
  /** Runs the charges due by now (the clock): CHARGED, or FAILED when failCharges says so. */
  processCharges(): Promise<void>;
  faults: {
    next(kind: FaultKind, options?: FaultOptions): void;
    webhooks: WebhookKnobs;
    failCharges: boolean;
  };
  /** Waits until every webhook queued so far was delivered (or failed), for tests. */
  flushWebhooks(): Promise<void>;
  /** Everything it was asked (API requests; the landing page is not part of the contract). */
  readonly requests: ReadonlyArray<SimulatorRequest>;
  /** Every callback it sent, tried or dropped. */
  readonly webhookDeliveries: ReadonlyArray<Readonly<WebhookDelivery>>;
}

interface PendingFault {
  readonly kind: FaultKind;
  remaining: number;
  readonly method: string | undefined;
  readonly pathPrefix: string | undefined;
  readonly status: number;
}

interface IssuedToken {
  readonly expiresAtMs: number;
  revoked: boolean;
}

interface StoredAnswer {
  readonly fingerprint: string;
  readonly answer: Answer;
}

const MAX_BODY_BYTES = 1_000_000;
const TOKEN_PATH = '/accesstoken/get';

/** FAQ titles of the ePayment idempotency conflicts. */
const EPAYMENT_CONFLICT_TITLE: Record<string, string> = {
  createPayment: 'Idempotency error',
  capturePayment: 'Capture idempotency conflict',
  refundPayment: 'Refund idempotency conflict',
  cancelPayment: 'Cancel idempotency conflict',
};

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refusal(413, 'payload-too-large', 'Payload Too Large', `the body is larger than ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function checkOptions(options: VippsSimulatorOptions): void {
  const { credentials } = options;
  for (const field of ['clientId', 'clientSecret', 'subscriptionKey'] as const) {
    if (typeof credentials[field] !== 'string' || credentials[field] === '') throw new TypeError(`createVippsSimulator: credentials.${field} must be a non-empty string`);
  }
  if (credentials.merchantSerialNumbers.length === 0) throw new TypeError('createVippsSimulator: credentials.merchantSerialNumbers must name at least one merchant');
  credentials.merchantSerialNumbers.forEach((msn, index) => {
    if (!Msn.safeParse(msn).success) throw new TypeError(`createVippsSimulator: credentials.merchantSerialNumbers[${index}] must be 4 to 6 digits`);
  });
  if (options.chargeLeadDays !== undefined && !(Number.isInteger(options.chargeLeadDays) && options.chargeLeadDays >= 0)) {
    throw new TypeError('createVippsSimulator: chargeLeadDays must be a whole number of days, 0 or more');
  }
}

export function createVippsSimulator(options: VippsSimulatorOptions): VippsSimulator {
  checkOptions(options);
  const { now, credentials } = options;
  const merchants = credentials.merchantSerialNumbers;
  const tokenLifetimeMs = options.tokenLifetimeMs ?? 3_600_000;

  let server: Server | undefined;
  let listenUrl: string | undefined;
  let requestOrigin: string | undefined;
  const log: SimulatorRequest[] = [];
  const pendingFaults: PendingFault[] = [];
  const issued = new Map<string, IssuedToken>();
  const idempotency = new Map<string, StoredAnswer>();
  const heldResponses = new Set<ServerResponse>();

  function publicUrl(): string {
    return (options.publicUrl ?? listenUrl ?? requestOrigin ?? 'http://127.0.0.1').replace(/\/+$/, '');
  }

  const faults: VippsSimulator['faults'] = {
    next(kind, faultOptions = {}) {
      const count = faultOptions.count ?? 1;
      if (!Number.isInteger(count) || count < 1) throw new TypeError('faults.next: count must be a whole number, 1 or more');
      pendingFaults.push({ kind, remaining: count, method: faultOptions.method?.toUpperCase(), pathPrefix: faultOptions.pathPrefix, status: faultOptions.status ?? 500 });
    },
    webhooks: { duplicate: false, reorder: false, drop: false },
    failCharges: false,
  };

  const webhooks = createWebhooksArea({
    now,
    // Looked up at each delivery, so that a test replacing globalThis.fetch is honoured.
    deliver: options.deliver ?? ((input, init) => globalThis.fetch(input, init)),
    knobs: faults.webhooks,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [100, 500, 2000],
  });
  const epayment = createEpaymentArea({ now, publicUrl, emit: webhooks.emit, paymentExpiryMs: options.paymentExpiryMs ?? 5 * 60_000 });
  const recurring = createRecurringArea({
    now,
    publicUrl,
    emit: webhooks.emit,
    chargeLeadDays: options.chargeLeadDays ?? 1,
    agreementExpiryMs: options.agreementExpiryMs ?? 10 * 60_000,
    failCharges: () => faults.failCharges,
  });

  function sweep(): void {
    epayment.sweep();
    recurring.sweep();
  }

  // ── the three Problem shapes (and the token endpoint's) ──────────────────────────────────

  function problem(api: VippsApi | undefined, refusal: Refusal, pathname: string): Answer {
    switch (api) {
      case 'epayment':
        // 1.4.1 has no extraDetails: the fields are named in `detail`. The `type` URIs are the
        // simulator's own; the pinned documents name none.
        return {
          status: refusal.status,
          contentType: 'application/problem+json',
          body: {
            type: `https://developer.vippsmobilepay.com/docs/APIs/epayment-api/problems#${refusal.slug}`,
            title: refusal.title,
            detail: refusal.detail,
            status: refusal.status,
            traceId: traceId(),
          },
        };
      case 'recurring':
        return {
          status: refusal.status,
          contentType: 'application/json;charset=UTF-8',
          body: {
            type: `${RECURRING_PROBLEM_TYPE_PREFIX}${refusal.slug}`,
            title: refusal.title,
            status: refusal.status,
            detail: refusal.detail,
            instance: pathname.replace(/^\/recurring/, ''),
            contextId: randomUUID(),
            ...(refusal.fields.length === 0 ? {} : { extraDetails: refusal.fields.map(({ name, reason }) => ({ field: name, text: reason })) }),
          },
        };
      case 'webhooks': {
        // The swagger's example puts the trace id in `type` too.
        const trace = traceId();
        return {
          status: refusal.status,
          contentType: 'application/problem+json',
          body: {
            type: trace,
            title: refusal.title,
            status: refusal.status,
            detail: refusal.detail,
            instance: pathname.replace(/^\/webhooks/, ''),
            traceId: trace,
            extraDetails: refusal.fields.length === 0 ? null : refusal.fields.map(({ name, reason }) => ({ name, reason })),
          },
        };
      }
      case 'access-token':
        return {
          status: refusal.status,
          contentType: 'application/json',
          body: {
            error: refusal.slug,
            error_description: refusal.detail,
            error_codes: [],
            timestamp: now().toISOString(),
            trace_id: randomUUID(),
            correlation_id: randomUUID(),
          },
        };
      default:
        return { status: refusal.status, contentType: 'application/json', body: { statusCode: refusal.status, message: refusal.detail } };
    }
  }

  function validationRefusal(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, prefix?: string): Refusal {
    const fields = issues.map((issue) => {
      const name = [prefix, ...issue.path.map(String)].filter((part) => part !== undefined && part !== '').join('.') || '(body)';
      return { name, reason: issue.message };
    });
    return new Refusal(400, 'validation-error', 'Bad Request', fields.map(({ name, reason }) => `${name}: ${reason}`).join('; '), fields);
  }

  // ── the gateway's checks ────────────────────────────────────────────────────────────────

  function checkSystemHeaders(headers: Record<string, string>): void {
    for (const name of SYSTEM_HEADERS) {
      const value = headers[name.toLowerCase()];
      if (value !== undefined && value.length > SYSTEM_HEADER_MAX_LENGTH) {
        throw new Refusal(400, 'validation-error', 'Bad Request', `${name}: must be at most ${SYSTEM_HEADER_MAX_LENGTH} characters`, [
          { name, reason: `at most ${SYSTEM_HEADER_MAX_LENGTH} characters` },
        ]);
      }
    }
  }

  function issueToken(headers: Record<string, string>): Answer {
    if (headers[HEADER.subscriptionKey.toLowerCase()] !== credentials.subscriptionKey) {
      throw new Refusal(401, 'invalid_subscription_key', 'Unauthorized', 'Access denied due to invalid subscription key.');
    }
    if (headers[HEADER.clientId] !== credentials.clientId || headers[HEADER.clientSecret] !== credentials.clientSecret) {
      throw new Refusal(401, 'unauthorized_client', 'Unauthorized', 'The client_id or client_secret is not valid.');
    }
    const msn = headers[HEADER.merchantSerialNumber.toLowerCase()];
    if (msn !== undefined && !merchants.includes(msn)) {
      throw new Refusal(400, 'invalid_request', 'Bad Request', `Merchant-Serial-Number ${msn} is not available with these credentials.`);
    }
    checkSystemHeaders(headers);
    const issuedAt = now().getTime();
    const expiresAtMs = issuedAt + tokenLifetimeMs;
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    // Shaped like the real JWT (header.payload.signature); the simulator only looks it up.
    const accessToken = [
      base64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' })),
      base64url(JSON.stringify({ iss: 'vipps-simulator', sub: credentials.clientId, iat: Math.floor(issuedAt / 1000), exp: Math.floor(expiresAtMs / 1000), jti: randomUUID() })),
      base64url(randomBytes(32)),
    ].join('.');
    issued.set(accessToken, { expiresAtMs, revoked: false });
    return {
      status: 200,
      contentType: 'application/json;charset=UTF-8',
      body: {
        token_type: 'Bearer',
        expires_in: String(Math.floor(tokenLifetimeMs / 1000)),
        ext_expires_in: '0',
        expires_on: seconds(expiresAtMs),
        not_before: seconds(issuedAt),
        resource: '00000002-0000-0000-c000-000000000000',
        access_token: accessToken,
      },
    };
  }

  function bearer(headers: Record<string, string>): string | undefined {
    return /^Bearer (\S+)$/i.exec(headers['authorization'] ?? '')?.[1];
  }

  function authenticate(headers: Record<string, string>): void {
    if (headers[HEADER.subscriptionKey.toLowerCase()] !== credentials.subscriptionKey) {
      throw new Refusal(401, 'not-authorized', 'Unauthorized', 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.');
    }
    const token = bearer(headers);
    const known = token === undefined ? undefined : issued.get(token);
    if (known === undefined || known.revoked) throw new Refusal(401, 'not-authorized', 'Unauthorized', 'Authorization: a valid "Bearer <access token>" is required.');
    if (now().getTime() >= known.expiresAtMs) throw new Refusal(401, 'not-authorized', 'Unauthorized', 'Authorization: the access token has expired.');
  }

  function merchant(operation: Operation, headers: Record<string, string>): string {
    const name = HEADER.merchantSerialNumber;
    const value = headers[name.toLowerCase()];
    if (value === undefined || value === '') {
      if (operation.merchantSerialNumber === 'required') {
        throw new Refusal(400, 'missing-request-header', 'Bad Request', `${name}: the header is required`, [{ name, reason: 'required' }]);
      }
      // Optional for Recurring and Webhooks: the credentials' (first) merchant.
      return merchants[0] ?? '';
    }
    if (!Msn.safeParse(value).success) throw new Refusal(400, 'validation-error', 'Bad Request', `${name}: must be 4 to 6 digits`, [{ name, reason: 'must be 4 to 6 digits' }]);
    if (!merchants.includes(value)) throw new Refusal(403, 'not-authorized', 'Forbidden', `${name}: ${value} is not available with these credentials`);
    return value;
  }

  // ── one API request ─────────────────────────────────────────────────────────────────────

  const handlers: Record<string, ((request: EpaymentRequest & RecurringRequest & WebhooksRequest) => Answer) | undefined> = {
    ...epayment.handlers,
    ...recurring.handlers,
    ...webhooks.handlers,
  };

  function dispatch(operation: Operation, request: EpaymentRequest & RecurringRequest & WebhooksRequest): Answer {
    const handle = handlers[operation.id];
    if (handle === undefined) throw new Refusal(501, 'not-implemented', 'Not Implemented', `${operation.id} is not simulated`);
    return handle(request);
  }

  function conflict(operation: Operation, key: string): Refusal {
    if (operation.api === 'recurring') {
      return new Refusal(409, 'idempotency-conflict', 'Conflict', `Idempotency-Key ${key} was used with another request`);
    }
    const title = EPAYMENT_CONFLICT_TITLE[operation.id] ?? 'Idempotency error';
    return new Refusal(409, 'idempotency-conflict', title, `Idempotency-Key \`${key}\` already exists. The request in an idempotent retry must be identical to the previous request(s).`);
  }

  function processApi(match: OperationMatch, method: string, url: URL, headers: Record<string, string>, raw: Buffer): Answer {
    const { operation, params } = match;
    try {
      if (operation.api === 'access-token') return issueToken(headers);
      authenticate(headers);
      const msn = merchant(operation, headers);
      checkSystemHeaders(headers);
      for (const [name, schema] of Object.entries(operation.pathParams)) {
        const checked = schema.safeParse(params[name]);
        if (!checked.success) throw validationRefusal(checked.error.issues, name);
      }

      const text = raw.toString('utf8');
      const json = text === '' ? undefined : parseJson(text);
      let idempotencyKey: string | undefined;
      let storeKey: string | undefined;
      let fingerprint = '';
      const rule = operation.idempotencyKey;
      if (rule !== null) {
        idempotencyKey = headers['idempotency-key'];
        if (idempotencyKey === undefined || idempotencyKey === '') {
          throw new Refusal(400, 'idempotency-key-header', 'Bad Request', 'Idempotency-Key: the header is required', [{ name: HEADER.idempotencyKey, reason: 'required' }]);
        }
        const keyProblem = idempotencyKeyProblem(idempotencyKey, rule);
        if (keyProblem !== null) throw new Refusal(400, 'idempotency-key-header', 'Bad Request', `Idempotency-Key: ${keyProblem}`, [{ name: HEADER.idempotencyKey, reason: keyProblem }]);
        storeKey = `${operation.api}\u0000${msn}\u0000${idempotencyKey}`;
        fingerprint = `${method} ${url.pathname} ${operation.request === null ? '' : json?.ok === true ? canonicalJson(json.value) : text}`;
        const stored = idempotency.get(storeKey);
        if (stored !== undefined) {
          if (stored.fingerprint !== fingerprint) throw conflict(operation, idempotencyKey);
          return stored.answer;
        }
      }

      let answer: Answer;
      try {
        let body: unknown;
        if (operation.request !== null) {
          if (json === undefined) throw new Refusal(400, 'validation-error', 'Bad Request', '(body): a JSON body is required', [{ name: '(body)', reason: 'required' }]);
          if (!/[/+]json\b/i.test(headers['content-type'] ?? '')) {
            throw new Refusal(415, 'unsupported-media-type', 'Unsupported Media Type', 'Content-Type: must be application/json');
          }
          if (!json.ok) throw new Refusal(400, 'invalid-json', 'Bad Request', '(body): not valid JSON');
          const checked = operation.request.safeParse(json.value);
          if (!checked.success) throw validationRefusal(checked.error.issues);
          body = checked.data;
        }
        answer = dispatch(operation, { msn, params, query: url.searchParams, body, idempotencyKey });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        answer = problem(operation.api, error, url.pathname);
      }
      // Recurring guide: "If the response is a client-error (4xx), you will continue to get the
      // same error as long as you use the same idempotency key"; the same for ePayment here.
      if (storeKey !== undefined && answer.status < 500) idempotency.set(storeKey, { fingerprint, answer });
      return answer;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return problem(operation.api, error, url.pathname);
    }
  }

  function takeFault(method: string, pathname: string): PendingFault | undefined {
    const tokenRequest = pathname.toLowerCase() === TOKEN_PATH;
    const index = pendingFaults.findIndex((fault) => {
      if (fault.method !== undefined && fault.method !== method) return false;
      if (fault.pathPrefix !== undefined ? !pathname.startsWith(fault.pathPrefix) : tokenRequest) return false;
      return !(fault.kind === 'expired-token' && tokenRequest);
    });
    const fault = pendingFaults[index];
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) pendingFaults.splice(index, 1);
    return fault;
  }

  function send(response: ServerResponse, entry: SimulatorRequest | undefined, answer: Answer): void {
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) };
    if (answer.body !== undefined) headers['content-type'] = answer.contentType ?? 'application/json';
    response.writeHead(answer.status, headers);
    response.end(body);
    if (entry !== undefined) entry.response = { status: answer.status, body: answer.body };
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = (request.method ?? 'GET').toUpperCase();
    const headers = flattenHeaders(request);
    let raw: Buffer;
    try {
      raw = await readBody(request);
    } catch (error) {
      if (error instanceof Refusal) send(response, undefined, problem(matchOperation(method, url.pathname)?.operation.api, error, url.pathname));
      else response.destroy();
      return;
    }
    const text = raw.toString('utf8');
    const parsed = text === '' ? undefined : parseJson(text);
    const entry: SimulatorRequest = {
      method,
      path: `${url.pathname}${url.search}`,
      headers,
      body: parsed === undefined ? undefined : parsed.ok ? parsed.value : text,
      response: undefined,
    };
    log.push(entry);
    sweep();

    const match = matchOperation(method, url.pathname);
    const fault = takeFault(method, url.pathname);
    if (fault?.kind === 'expired-token') {
      // As if the token the caller holds had run out: it stays refused afterwards.
      const token = bearer(headers);
      const known = token === undefined ? undefined : issued.get(token);
      if (known !== undefined) known.revoked = true;
      send(response, entry, problem(match?.operation.api, new Refusal(401, 'not-authorized', 'Unauthorized', 'Authorization: the access token has expired.'), url.pathname));
      return;
    }
    if (fault?.kind === 'rate-limited') {
      // Refused before any work, as the APIs' rate limits answer (vipps-developers "rate limiting": 429).
      send(response, entry, problem(match?.operation.api, new Refusal(429, 'too-many-requests', 'Too Many Requests', 'Rate limit exceeded; try again later.'), url.pathname));
      return;
    }
    const answer = match === null ? problem(undefined, new Refusal(404, 'not-found', 'Not Found', 'Resource not found'), url.pathname) : processApi(match, method, url, headers, raw);
    if (fault?.kind === 'timeout') {
      // Carried out, never answered: the caller gives up and cannot know what happened.
      heldResponses.add(response);
      response.on('close', () => heldResponses.delete(response));
      return;
    }
    if (fault?.kind === 'server-error') {
      // Carried out, then answered 5xx: the worst case for a caller, the effect happened while
      // the answer says it failed. A retry with the same Idempotency-Key gets the real answer.
      send(response, entry, problem(match?.operation.api, new Refusal(fault.status, 'internal-server-error', 'Internal Server Error', 'An unexpected error occurred.'), url.pathname));
      return;
    }
    send(response, entry, answer);
  }

  // ── the landing page ────────────────────────────────────────────────────────────────────

  function html(response: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': LANDING_CSP,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
      ...extra,
    });
    response.end(body);
  }

  function redirect(response: ServerResponse, location: string): void {
    response.writeHead(303, { location, 'cache-control': 'no-store', 'content-length': 0 });
    response.end();
  }

  const ACTION_DONE: Record<LandingAction, string> = { approve: 'Godkjent', reject: 'Avvist', expire: 'Utløpt' };

  async function handleLanding(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (url.pathname !== LANDING_PATH) return html(response, 404, messagePage('Fant ikke siden', 'Denne siden finnes ikke i simulatoren.'));
    sweep();
    if (request.method === 'GET' || request.method === 'HEAD') {
      const reference = url.searchParams.get('reference');
      const agreementId = url.searchParams.get('agreementId');
      if (reference !== null) {
        const payment = epayment.byReference(reference);
        if (payment === undefined) return html(response, 404, messagePage('Fant ikke betalingen', `Ingen betaling med referanse ${reference}.`));
        return html(response, 200, paymentPage(payment, options.merchantNames?.[payment.msn]));
      }
      if (agreementId !== null) {
        const found = recurring.agreementForLanding(agreementId);
        if (found === undefined) return html(response, 404, messagePage('Fant ikke avtalen', `Ingen avtale med id ${agreementId}.`));
        return html(response, 200, agreementPage(found.msn, found.agreement, options.merchantNames?.[found.msn], found.initialCharge));
      }
      return html(response, 400, messagePage('Mangler betaling', 'Lenken mangler reference eller agreementId.'));
    }
    if (request.method !== 'POST') return html(response, 405, messagePage('Ikke tillatt', 'Bare GET og POST.'), { allow: 'GET, HEAD, POST' });
    const form = new URLSearchParams((await readBody(request)).toString('utf8'));
    const action = form.get('action');
    if (action !== 'approve' && action !== 'reject' && action !== 'expire') return html(response, 400, messagePage('Ukjent valg', 'Velg Godkjenn, Avvis eller La utløpe.'));
    const reference = form.get('reference');
    const agreementId = form.get('agreementId');
    try {
      if (reference !== null) {
        const payment = epayment.userAction(reference, action);
        if (payment.returnUrl !== undefined) return redirect(response, payment.returnUrl);
        return html(response, 200, messagePage(ACTION_DONE[action], 'Du kan lukke denne siden.'));
      }
      if (agreementId !== null) {
        const agreement =
          action === 'approve' ? recurring.userActions.approve(agreementId) : action === 'reject' ? recurring.userActions.reject(agreementId) : recurring.userActions.expire(agreementId);
        return redirect(response, agreement.merchantRedirectUrl);
      }
    } catch (error) {
      return html(response, 409, messagePage('Kan ikke endres', error instanceof Error ? error.message : String(error)));
    }
    return html(response, 400, messagePage('Mangler betaling', 'Skjemaet mangler reference eller agreementId.'));
  }

  // ── wiring ──────────────────────────────────────────────────────────────────────────────

  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const host = request.headers.host;
    if (host !== undefined) requestOrigin = `http://${host}`;
    const url = new URL(request.url ?? '/', 'http://simulator.invalid');
    const work = url.pathname.startsWith('/simulator/') ? handleLanding(request, response, url) : handleApi(request, response, url);
    work.catch(() => {
      // A bug in the simulator: answer 500 rather than hang the caller.
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ statusCode: 500, message: 'simulator error' }));
      } else {
        response.destroy();
      }
    });
  };

  return {
    handler,
    async listen(port = 0, host = '127.0.0.1') {
      if (server !== undefined) throw new Error('The simulator is already listening');
      const created = createServer(handler);
      server = created;
      await new Promise<void>((resolve, reject) => {
        created.once('error', reject);
        created.listen(port, host, () => resolve());
      });
      const address = created.address() as AddressInfo;
      listenUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      return listenUrl;
    },
    async close() {
      await webhooks.close();
      for (const response of heldResponses) response.destroy();
      heldResponses.clear();
      const running = server;
      server = undefined;
      listenUrl = undefined;
      if (running === undefined) return;
      await new Promise<void>((resolve) => {
        running.close(() => resolve());
        running.closeAllConnections();
      });
    },
    get url() {
      const url = listenUrl ?? options.publicUrl;
      if (url === undefined) throw new Error('The simulator is not listening and has no publicUrl');
      return url.replace(/\/+$/, '');
    },
    approve: (reference) => void epayment.userAction(reference, 'approve'),
    reject: (reference) => void epayment.userAction(reference, 'reject'),
    expire: (reference) => void epayment.userAction(reference, 'expire'),
    approveAgreement: (agreementId) => void recurring.userActions.approve(agreementId),
    rejectAgreement: (agreementId) => void recurring.userActions.reject(agreementId),
    stopAgreement: (agreementId) => void recurring.userActions.stop(agreementId),
    restoreAgreement({ merchantSerialNumber, ...agreement }) {
      const msn = merchantSerialNumber ?? merchants[0] ?? '';
      if (!merchants.includes(msn)) throw new TypeError(`restoreAgreement: merchant ${msn} is not one of the simulator's`);
      recurring.restore({ ...agreement, msn });
    },
    async processCharges() {
      recurring.processCharges();
    },
    faults,
    flushWebhooks: () => webhooks.flush(),
    get requests() {
      return log;
    },
    get webhookDeliveries() {
      return webhooks.deliveries;
    },
  };
}
