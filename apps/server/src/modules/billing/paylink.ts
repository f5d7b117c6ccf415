import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Pay-link tokens (`/betaling?token=…`): `base64url(payload).base64url(HMAC-SHA256)`, the
 * payload naming one invoice and an expiry. Nothing is stored: the server secret makes the
 * token unforgeable and the expiry makes it end. A token is worth exactly one invoice's
 * payment page, so it may travel in e-mail and SMS.
 */

export const PAYLINK_DEFAULT_DAYS = 30;

interface PaylinkPayload {
  v: 1;
  /** ariaInvoiceNo */
  i: number;
  /** Expiry, seconds since the epoch. */
  e: number;
}

export type PaylinkCheck = { ok: true; ariaInvoiceNo: number; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`paylink.${body}`).digest();

export function createPaylinkToken(secret: string, ariaInvoiceNo: number, expiresAt: Date): string {
  const payload: PaylinkPayload = { v: 1, i: ariaInvoiceNo, e: Math.floor(expiresAt.getTime() / 1000) };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

export function verifyPaylinkToken(secret: string, token: string, now: Date): PaylinkCheck {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return { ok: false, reason: 'invalid' };
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  let payload: Partial<PaylinkPayload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<PaylinkPayload>;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (payload.v !== 1 || !Number.isSafeInteger(payload.i) || !Number.isSafeInteger(payload.e)) return { ok: false, reason: 'invalid' };
  const expiresAt = new Date((payload.e as number) * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, ariaInvoiceNo: payload.i as number, expiresAt };
}
