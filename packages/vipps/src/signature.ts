/**
 * Webhook request signing as `request-authentication.md` (webhooks-api @ d1c57d2) describes it:
 *
 *   x-ms-content-sha256 = base64(SHA-256(raw body))
 *   string to sign      = METHOD \n pathAndQuery \n x-ms-date;host;x-ms-content-sha256
 *   authorization       = HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=base64(HMAC-SHA256(secret, string to sign))
 *
 * The secret is used as UTF-8 text, not base64-decoded: only that reproduces the documentation's
 * worked example (test/signature.test.ts). The simulator signs with `signWebhookRequest`, a
 * receiver checks with `verifyWebhookRequest`, so the two cannot disagree.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SIGNED_HEADERS = 'x-ms-date;host;x-ms-content-sha256';
const AUTHORIZATION_PREFIX = `HMAC-SHA256 SignedHeaders=${SIGNED_HEADERS}&Signature=`;

export type WebhookBody = string | Uint8Array;

export interface SignWebhookRequestInput {
  /** The `secret` of the registration (`RegisterWebhookResponse.secret`). */
  secret: string;
  /** `POST` for every callback; upper-cased into the string to sign. */
  method: string;
  /** `url.pathname + url.search` of the registered URL. */
  pathAndQuery: string;
  /** `url.host` of the registered URL (with `:port` when not the default). */
  host: string;
  /** The exact bytes sent (a string is taken as UTF-8). */
  body: WebhookBody;
  date: Date;
}

function contentHash(body: WebhookBody): string {
  return createHash('sha256').update(body).digest('base64');
}

function signature(secret: string, method: string, pathAndQuery: string, date: string, host: string, hash: string): string {
  const stringToSign = `${method.toUpperCase()}\n${pathAndQuery}\n${date};${host};${hash}`;
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(stringToSign, 'utf8').digest('base64');
}

/** The four headers of a signed callback, keys lower-case. */
export function signWebhookRequest({ secret, method, pathAndQuery, host, body, date }: SignWebhookRequestInput): Record<string, string> {
  const xMsDate = date.toUTCString();
  const hash = contentHash(body);
  return {
    'x-ms-date': xMsDate,
    'x-ms-content-sha256': hash,
    host,
    authorization: `${AUTHORIZATION_PREFIX}${signature(secret, method, pathAndQuery, xMsDate, host, hash)}`,
  };
}

export type WebhookVerificationFailure = 'MISSING_HEADER' | 'BAD_CONTENT_HASH' | 'BAD_SIGNATURE' | 'STALE';
export type WebhookVerification = { ok: true } | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookRequestInput {
  secret: string;
  method: string;
  /** As the request arrived (`request.url` in node:http). */
  pathAndQuery: string;
  /** As node:http gives them: lower-case keys. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body bytes, before any JSON parsing. */
  body: WebhookBody;
  /** The injected clock, or the instant itself. */
  now: Date | (() => Date);
  /**
   * The docs say nothing about the freshness of `x-ms-date`; without a limit a captured callback
   * could be replayed forever. Default five minutes either way.
   */
  maxAgeMs?: number;
  /**
   * The host the sender signed (the registered URL's host), when a proxy in between rewrites the
   * `host` header. Defaults to the `host` header.
   */
  host?: string;
}

function single(value: string | string[] | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 1) return value[0];
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  // The lengths of a base64 digest are public; only the content must not leak through timing.
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks a callback: the body against `x-ms-content-sha256`, the signature over date, host and
 * hash, then the age of `x-ms-date`. A tampered date is a bad signature; a well-signed old one is
 * stale.
 */
export function verifyWebhookRequest({ secret, method, pathAndQuery, headers, body, now, maxAgeMs = 300_000, host }: VerifyWebhookRequestInput): WebhookVerification {
  const date = single(headers['x-ms-date']);
  const hash = single(headers['x-ms-content-sha256']);
  const authorization = single(headers['authorization']);
  const signedHost = host ?? single(headers['host']);
  if (date === undefined || hash === undefined || authorization === undefined || signedHost === undefined) {
    return { ok: false, reason: 'MISSING_HEADER' };
  }
  if (!sameText(contentHash(body), hash)) return { ok: false, reason: 'BAD_CONTENT_HASH' };
  const expected = `${AUTHORIZATION_PREFIX}${signature(secret, method, pathAndQuery, date, signedHost, hash)}`;
  if (!sameText(expected, authorization)) return { ok: false, reason: 'BAD_SIGNATURE' };
  const signedAt = new Date(date).getTime();
  const at = (typeof now === 'function' ? now() : now).getTime();
  if (Number.isNaN(signedAt) || Math.abs(at - signedAt) > maxAgeMs) return { ok: false, reason: 'STALE' };
  return { ok: true };
}
