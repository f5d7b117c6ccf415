/**
 * What the simulator's areas share: the refusal they throw (the core turns it into the API's own
 * Problem shape), the answer they return, ids, and Oslo calendar days.
 */
import { randomBytes, randomInt } from 'node:crypto';

export interface Answer {
  readonly status: number;
  /** undefined = no body. */
  readonly body?: unknown;
  readonly contentType?: string;
}

export interface FieldProblem {
  readonly name: string;
  readonly reason: string;
}

/**
 * A request the simulator says no to. `slug` is the Recurring problem identifier (from
 * `recurring-api-problems.md`) or, for the other APIs, a short name of our own.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly fields: readonly FieldProblem[];

  constructor(status: number, slug: string, title: string, detail: string, fields: readonly FieldProblem[] = []) {
    super(`${status} ${title}: ${detail}`);
    this.status = status;
    this.slug = slug;
    this.title = title;
    this.detail = detail;
    this.fields = fields;
  }
}

/** One callback to send: the core hands it to every registration that subscribed to `eventType`. */
export type Emit = (msn: string, eventType: string, payload: Record<string, unknown>) => void;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}

/** Ten digits, the form of the event log's `pspReference` and a charge's `transactionId`. */
export function randomDigits(length = 10): string {
  let text = String(randomInt(1, 10));
  for (let i = 1; i < length; i += 1) text += String(randomInt(10));
  return text;
}

/** A W3C trace parent, the form of the Webhooks API's `traceId` example. */
export function traceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

// The simulator stands for Vipps's service and depends on no Min Side package: its own Oslo day, not @minside/domain's osloToday.
const osloDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day in Norway at an instant, `YYYY-MM-DD`. */
export function osloDate(at: Date): string {
  return osloDay.format(at);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function addYears(isoDate: string, years: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().slice(0, 10);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The URL rules of the docs ("HTTPS", "or a custom URL scheme"), with one allowance: `http://` on
 * a loopback host, so that development and tests can receive redirects and callbacks locally.
 * What the real API does with a loopback URL is not in the pinned documents.
 */
export function urlProblem(value: string, allowCustomScheme: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return null;
  // `*.localhost` is loopback too (RFC 6761): the portal's development hosts are `{title}.localhost`.
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost') ? null : 'must use the https:// scheme';
  return allowCustomScheme ? null : 'must use the https:// scheme';
}

/** JSON with object keys sorted, so that the same body in another key order is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
