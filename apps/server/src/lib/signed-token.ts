import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed link token: `base64url(JSON payload).base64url(HMAC-SHA256)`, the MAC taken over
 * `{purpose}.{payload}` so a token made for one purpose never passes for another under the
 * same key. Nothing is stored: the secret makes it unforgeable; a payload that should end
 * carries its own expiry. The pay-link (modules/billing/paylink.ts, purpose `paylink`) uses the
 * same format, so it can move onto this helper with its tokens unchanged.
 */
const mac = (secret: string, purpose: string, body: string) => createHmac('sha256', secret).update(`${purpose}.${body}`).digest();

export function signToken(secret: string, purpose: string, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, purpose, body).toString('base64url')}`;
}

/** The payload of a token this secret signed for this purpose; `undefined` for anything else (forged, cut, another purpose). */
export function readSignedToken(secret: string, purpose: string, token: string): unknown {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, purpose, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
