/**
 * A thin typed client of the operations table: every request is checked against the contract
 * before it leaves (a programming error throws a TypeError at once) and every answer is parsed
 * with the contract's answer schema.
 *
 * Retries: only what is safe to repeat — GETs, the token fetch, and calls that carry an
 * Idempotency-Key, always with the same key — on a network error, a timeout or a 5xx, at most
 * twice. A retry is then the same operation to the provider, never a second one. A 401 once
 * fetches a new token and sends again (that is not a retry of the operation: it was refused).
 * No logging here; errors carry no secrets.
 */
import type { z } from 'zod';
import { HEADER, Msn, SYSTEM_HEADER_MAX_LENGTH, describeIssues, idempotencyKeyProblem } from './contract/common.ts';
import type { Amount } from './contract/common.ts';
import type { CreatePaymentRequest, CreatePaymentResponse, GetPaymentResponse, ModificationResponse, PaymentEvent } from './contract/epayment.ts';
import { operationPath, operations } from './contract/operations.ts';
import type { Operation } from './contract/operations.ts';
import type { Agreement, Charge, CreateChargeRequest, CreateChargeResponse, DraftAgreementRequest, DraftAgreementResponse, PatchAgreementRequest } from './contract/recurring.ts';
import type { RegisterWebhookRequest, RegisterWebhookResponse, WebhookList } from './contract/webhooks.ts';
import { VippsApiError, VippsContractError, VippsUnavailableError } from './errors.ts';

export interface VippsClientConfig {
  /** https://apitest.vipps.no, https://api.vipps.no, or a simulator's URL. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  /** The default; every call may pass `msn` to override (titles may have their own merchant). */
  merchantSerialNumber: string;
  /** The `Vipps-System-*` headers (at most 30 characters each). */
  system: { name: string; version: string; pluginName?: string; pluginVersion?: string };
  now: () => Date;
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Per request (each attempt), default 10_000. */
  timeoutMs?: number;
  /** Pauses before the first and the second retry, default [200, 600]. */
  retryDelaysMs?: readonly [number, number];
  /** A token is renewed this long before its `expires_on`, default 60_000. */
  tokenRenewalMarginMs?: number;
}

/** Every call may name another merchant than the configured one. */
type MerchantOption = { msn?: string };
/** Calls that change something carry the caller's Idempotency-Key, the same for every repeat. */
type KeyedOptions = { idempotencyKey: string; msn?: string };

export interface VippsClient {
  epayment: {
    create(body: CreatePaymentRequest, opts: KeyedOptions): Promise<CreatePaymentResponse>;
    get(reference: string, opts?: MerchantOption): Promise<GetPaymentResponse>;
    events(reference: string, opts?: MerchantOption): Promise<PaymentEvent[]>;
    capture(reference: string, amount: Amount, opts: KeyedOptions): Promise<ModificationResponse>;
    cancel(reference: string, opts: KeyedOptions): Promise<ModificationResponse>;
    refund(reference: string, amount: Amount, opts: KeyedOptions): Promise<ModificationResponse>;
    /** The test environment's force approve; the simulator has it too. */
    forceApprove(reference: string, body: { customer: { phoneNumber: string } }, opts?: MerchantOption): Promise<void>;
  };
  recurring: {
    createAgreement(body: DraftAgreementRequest, opts: KeyedOptions): Promise<DraftAgreementResponse>;
    getAgreement(agreementId: string, opts?: MerchantOption): Promise<Agreement>;
    updateAgreement(agreementId: string, body: PatchAgreementRequest, opts: KeyedOptions): Promise<void>;
    createCharge(agreementId: string, body: CreateChargeRequest, opts: KeyedOptions): Promise<CreateChargeResponse>;
    getCharge(agreementId: string, chargeId: string, opts?: MerchantOption): Promise<Charge>;
    cancelCharge(agreementId: string, chargeId: string, opts: KeyedOptions): Promise<void>;
    refundCharge(agreementId: string, chargeId: string, body: { amount: number; description: string }, opts: KeyedOptions): Promise<void>;
  };
  webhooks: {
    register(body: RegisterWebhookRequest, opts?: MerchantOption): Promise<RegisterWebhookResponse>;
    list(opts?: MerchantOption): Promise<WebhookList>;
    delete(id: string, opts?: MerchantOption): Promise<void>;
  };
}

interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
  msn?: string;
}

interface CachedToken {
  accessToken: string;
  renewAtMs: number;
}

const MAX_RETRIES = 2;

function requireText(field: string, value: unknown, maxLength?: number): void {
  if (typeof value !== 'string' || value === '') throw new TypeError(`VippsClientConfig.${field}: must be a non-empty string`);
  if (maxLength !== undefined && value.length > maxLength) throw new TypeError(`VippsClientConfig.${field}: must be at most ${maxLength} characters`);
}

function checkConfig(config: VippsClientConfig): URL {
  let base: URL;
  try {
    base = new URL(config.baseUrl);
  } catch {
    throw new TypeError('VippsClientConfig.baseUrl: must be an absolute URL');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError('VippsClientConfig.baseUrl: must be http(s)');
  requireText('clientId', config.clientId);
  requireText('clientSecret', config.clientSecret);
  requireText('subscriptionKey', config.subscriptionKey);
  if (!Msn.safeParse(config.merchantSerialNumber).success) throw new TypeError('VippsClientConfig.merchantSerialNumber: must be 4 to 6 digits');
  requireText('system.name', config.system.name, SYSTEM_HEADER_MAX_LENGTH);
  requireText('system.version', config.system.version, SYSTEM_HEADER_MAX_LENGTH);
  if (config.system.pluginName !== undefined) requireText('system.pluginName', config.system.pluginName, SYSTEM_HEADER_MAX_LENGTH);
  if (config.system.pluginVersion !== undefined) requireText('system.pluginVersion', config.system.pluginVersion, SYSTEM_HEADER_MAX_LENGTH);
  if (typeof config.now !== 'function') throw new TypeError('VippsClientConfig.now: must be a clock function');
  return base;
}

function isJson(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/i.test(contentType);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function createVippsClient(config: VippsClientConfig): VippsClient {
  const base = checkConfig(config);
  const baseUrl = base.href.replace(/\/+$/, '');
  const doFetch = config.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init));
  const timeoutMs = config.timeoutMs ?? 10_000;
  const retryDelays = config.retryDelaysMs ?? [200, 600];
  const renewalMargin = config.tokenRenewalMarginMs ?? 60_000;
  const tokens = new Map<string, CachedToken>();
  const pendingTokens = new Map<string, Promise<CachedToken>>();

  const systemHeaders: Record<string, string> = {
    [HEADER.systemName]: config.system.name,
    [HEADER.systemVersion]: config.system.version,
  };
  if (config.system.pluginName !== undefined) systemHeaders[HEADER.systemPluginName] = config.system.pluginName;
  if (config.system.pluginVersion !== undefined) systemHeaders[HEADER.systemPluginVersion] = config.system.pluginVersion;

  function merchant(msn: string | undefined): string {
    const chosen = msn ?? config.merchantSerialNumber;
    if (!Msn.safeParse(chosen).success) throw new TypeError('msn: must be 4 to 6 digits');
    return chosen;
  }

  type Attempt = { kind: 'answer'; status: number; contentType: string | null; text: string } | { kind: 'no-answer'; detail: string; cause: unknown };

  async function attempt(url: string, init: RequestInit): Promise<Attempt> {
    try {
      // The APIs never redirect; following one would send the bearer token somewhere unknown.
      const response = await doFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      // The body is read under the same timeout: an answer that never finishes is no answer.
      const text = await response.text();
      return { kind: 'answer', status: response.status, contentType: response.headers.get('content-type'), text };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return { kind: 'no-answer', detail: timedOut ? `no answer within ${timeoutMs} ms` : 'network error', cause: error };
    }
  }

  /**
   * Sends until there is an answer worth returning: retries safe requests on no answer, 5xx or
   * 429 (a rate limit: nothing was done, try later). Answers 2xx/4xx are returned; a 5xx, 429 or
   * no answer after the retries throws VippsUnavailableError.
   */
  async function exchange(operation: Operation, url: string, init: RequestInit, retryable: boolean): Promise<Extract<Attempt, { kind: 'answer' }>> {
    for (let retry = 0; ; retry += 1) {
      const result = await attempt(url, init);
      const failed = result.kind === 'no-answer' || result.status >= 500 || result.status === 429;
      if (!failed) return result;
      if (!retryable || retry >= MAX_RETRIES) {
        if (result.kind === 'no-answer') throw new VippsUnavailableError(operation.id, result.detail, { cause: result.cause });
        throw new VippsUnavailableError(operation.id, `answered ${result.status}${retryable ? ` after ${retry} retries` : ''}`, { status: result.status });
      }
      await sleep(retryDelays[retry] ?? retryDelays[retryDelays.length - 1] ?? 0);
    }
  }

  function problemOf(result: Extract<Attempt, { kind: 'answer' }>): unknown {
    if (result.text === '') return null;
    const parsed = parseJson(result.text);
    return parsed.ok ? parsed.value : result.text;
  }

  async function fetchToken(msn: string): Promise<CachedToken> {
    const operation = operations.fetchAuthorizationTokenUsingPost;
    const headers: Record<string, string> = {
      [HEADER.clientId]: config.clientId,
      [HEADER.clientSecret]: config.clientSecret,
      [HEADER.subscriptionKey]: config.subscriptionKey,
      [HEADER.merchantSerialNumber]: msn,
      ...systemHeaders,
    };
    // Fetching a token changes nothing at the provider, so it is retried like a GET.
    const result = await exchange(operation, `${baseUrl}${operation.path}`, { method: operation.method, headers }, true);
    if (result.status !== operation.successStatus) throw new VippsApiError(operation.id, result.status, problemOf(result));
    const answer = parseAnswer(operation, result);
    const expiresOn = Number(answer.expires_on);
    if (!/^\d+$/.test(answer.expires_on) || !Number.isSafeInteger(expiresOn)) {
      throw new VippsContractError(operation.id, ['expires_on: must be epoch seconds']);
    }
    return { accessToken: answer.access_token, renewAtMs: expiresOn * 1000 - renewalMargin };
  }

  /** One token per MSN, shared by concurrent calls, renewed by the injected clock. */
  async function token(msn: string): Promise<CachedToken> {
    const cached = tokens.get(msn);
    if (cached !== undefined && config.now().getTime() < cached.renewAtMs) return cached;
    const pending = pendingTokens.get(msn);
    if (pending !== undefined) return pending;
    const fetching = fetchToken(msn)
      .then((fresh) => {
        tokens.set(msn, fresh);
        return fresh;
      })
      .finally(() => pendingTokens.delete(msn));
    pendingTokens.set(msn, fetching);
    return fetching;
  }

  function parseAnswer<A extends z.ZodType>(operation: Operation<z.ZodType | null, A>, result: Extract<Attempt, { kind: 'answer' }>): z.infer<A> {
    const answer = operation.answer;
    if (answer === null) throw new TypeError(`${operation.id}: has no answer schema`);
    if (!isJson(result.contentType) && result.contentType !== null) {
      throw new VippsContractError(operation.id, [`content-type: expected JSON, got ${result.contentType}`]);
    }
    const json = parseJson(result.text);
    if (!json.ok) throw new VippsContractError(operation.id, ['(body): not JSON']);
    const parsed = answer.safeParse(json.value);
    if (!parsed.success) throw new VippsContractError(operation.id, describeIssues(parsed.error));
    return parsed.data as z.infer<A>;
  }

  /** Checks the request against the contract, sends it, and returns the answer's parsed body (or undefined). */
  async function call<A extends z.ZodType | null>(operation: Operation<z.ZodType | null, A>, options: CallOptions): Promise<A extends z.ZodType ? z.infer<A> : undefined> {
    const msn = merchant(options.msn);
    for (const [name, schema] of Object.entries(operation.pathParams)) {
      const value = options.params?.[name];
      const checked = schema.safeParse(value);
      if (!checked.success) throw new TypeError(`${operation.id}: ${describeIssues(checked.error, name).join('; ')}`);
    }
    let body: string | undefined;
    if (operation.request !== null) {
      const checked = operation.request.safeParse(options.body);
      if (!checked.success) throw new TypeError(`${operation.id}: ${describeIssues(checked.error, 'body').join('; ')}`);
      body = JSON.stringify(checked.data);
    }
    const rule = operation.idempotencyKey;
    if (rule !== null && rule.required) {
      if (options.idempotencyKey === undefined) throw new TypeError(`${operation.id}: idempotencyKey is required`);
      const problem = idempotencyKeyProblem(options.idempotencyKey, rule);
      if (problem !== null) throw new TypeError(`${operation.id}: idempotencyKey ${problem}`);
    }
    const url = `${baseUrl}${operationPath(operation, options.params ?? {})}`;
    const retryable = operation.method === 'GET' || options.idempotencyKey !== undefined;

    let renewed = false;
    for (;;) {
      const used = await token(msn);
      const headers: Record<string, string> = {
        [HEADER.authorization]: `Bearer ${used.accessToken}`,
        [HEADER.subscriptionKey]: config.subscriptionKey,
        [HEADER.merchantSerialNumber]: msn,
        ...systemHeaders,
      };
      if (options.idempotencyKey !== undefined) headers[HEADER.idempotencyKey] = options.idempotencyKey;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const result = await exchange(operation, url, body === undefined ? { method: operation.method, headers } : { method: operation.method, headers, body }, retryable);

      if (result.status === 401 && !renewed) {
        renewed = true;
        if (tokens.get(msn) === used) tokens.delete(msn);
        continue;
      }
      if (result.status < 200 || result.status >= 300) throw new VippsApiError(operation.id, result.status, problemOf(result));
      if (result.status !== operation.successStatus && !operation.alsoSuccess.includes(result.status)) {
        throw new VippsContractError(operation.id, [`status: expected ${[operation.successStatus, ...operation.alsoSuccess].join(' or ')}, got ${result.status}`]);
      }
      if (operation.answer === null) return undefined as A extends z.ZodType ? z.infer<A> : undefined;
      return parseAnswer(operation as Operation<z.ZodType | null, z.ZodType>, result) as A extends z.ZodType ? z.infer<A> : undefined;
    }
  }

  return {
    epayment: {
      create: (body, opts) => call(operations.createPayment, { body, ...opts }),
      get: (reference, opts = {}) => call(operations.getPayment, { params: { reference }, ...opts }),
      events: (reference, opts = {}) => call(operations.getPaymentEventLog, { params: { reference }, ...opts }),
      capture: (reference, amount, opts) => call(operations.capturePayment, { params: { reference }, body: { modificationAmount: amount }, ...opts }),
      cancel: (reference, opts) => call(operations.cancelPayment, { params: { reference }, ...opts }),
      refund: (reference, amount, opts) => call(operations.refundPayment, { params: { reference }, body: { modificationAmount: amount }, ...opts }),
      forceApprove: (reference, body, opts = {}) => call(operations.forceApprove, { params: { reference }, body, ...opts }),
    },
    recurring: {
      createAgreement: (body, opts) => call(operations.DraftAgreementV3, { body, ...opts }),
      getAgreement: (agreementId, opts = {}) => call(operations.FetchAgreementV3, { params: { agreementId }, ...opts }),
      updateAgreement: (agreementId, body, opts) => call(operations.UpdateAgreementPatchV3, { params: { agreementId }, body, ...opts }),
      createCharge: (agreementId, body, opts) => call(operations.CreateChargeV3, { params: { agreementId }, body, ...opts }),
      getCharge: (agreementId, chargeId, opts = {}) => call(operations.FetchChargeV3, { params: { agreementId, chargeId }, ...opts }),
      cancelCharge: (agreementId, chargeId, opts) => call(operations.CancelChargeV3, { params: { agreementId, chargeId }, ...opts }),
      refundCharge: (agreementId, chargeId, body, opts) => call(operations.RefundChargeV3, { params: { agreementId, chargeId }, body, ...opts }),
    },
    webhooks: {
      register: (body, opts = {}) => call(operations.registerWebhook, { body, ...opts }),
      list: (opts = {}) => call(operations.getAllWebhooks, opts),
      delete: (id, opts = {}) => call(operations.deleteWebhook, { params: { id }, ...opts }),
    },
  };
}
