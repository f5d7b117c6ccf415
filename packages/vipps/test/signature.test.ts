import { describe, expect, it } from 'vitest';
import { signWebhookRequest, verifyWebhookRequest } from '../src/index.ts';

// The worked example of webhooks-api request-authentication.md @ d1c57d2 (contract.md §5.3).
const example = {
  secret: 'A0+AeKBRG2KRGvnNwJpQlb6IJFk48CKXCIcrLoHncVJKDILsQSxS6NWCccwWm6r6FhGKhiHTBsG2wo/xU6FY/A==',
  url: new URL('https://webhook.site/e2cee29b-012e-4f1d-8ef4-e95fd74a7a63'),
  body: '{"some-unique-content":"ee6e441b-cc4a-46f8-895d-a5af79bcc233/hello-world"}',
  date: 'Thu, 30 Mar 2023 08:38:32 GMT',
  contentHash: 'lNlsp1XA03N34HrQsVzPgJKtC+r7l/RBF4V3JQUWMj4=',
  authorization: 'HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=agAiSyogQbDHpeucoNwYz+yAr5nJ+v+zasdkSbqzv+U=',
};
const signedAt = new Date(example.date);
const pathAndQuery = `${example.url.pathname}${example.url.search}`;

function signed(overrides: { body?: string; date?: Date } = {}) {
  return signWebhookRequest({
    secret: example.secret,
    method: 'POST',
    pathAndQuery,
    host: example.url.host,
    body: overrides.body ?? example.body,
    date: overrides.date ?? signedAt,
  });
}

describe('signWebhookRequest', () => {
  it("reproduces the documentation's example byte for byte", () => {
    expect(signed()).toEqual({
      'x-ms-date': example.date,
      'x-ms-content-sha256': example.contentHash,
      host: 'webhook.site',
      authorization: example.authorization,
    });
  });

  it('hashes the same bytes whether given as text or as UTF-8 bytes', () => {
    const body = '{"tekst":"blåbærsyltetøy"}';
    const asText = signed({ body });
    const asBytes = signWebhookRequest({ secret: example.secret, method: 'post', pathAndQuery, host: 'webhook.site', body: new TextEncoder().encode(body), date: signedAt });
    expect(asBytes).toEqual(asText);
  });
});

describe('verifyWebhookRequest', () => {
  const verify = (headers: Record<string, string | string[] | undefined>, overrides: { body?: string; path?: string; now?: Date; maxAgeMs?: number } = {}) =>
    verifyWebhookRequest({
      secret: example.secret,
      method: 'POST',
      pathAndQuery: overrides.path ?? pathAndQuery,
      headers,
      body: overrides.body ?? example.body,
      now: overrides.now ?? signedAt,
      ...(overrides.maxAgeMs === undefined ? {} : { maxAgeMs: overrides.maxAgeMs }),
    });

  it("accepts the documentation's example", () => {
    expect(verify(signed())).toEqual({ ok: true });
    expect(verify({ ...signed() }, { now: new Date(signedAt.getTime() + 299_000) })).toEqual({ ok: true });
  });

  it('takes the clock as a function too', () => {
    expect(verifyWebhookRequest({ secret: example.secret, method: 'POST', pathAndQuery, headers: signed(), body: example.body, now: () => signedAt })).toEqual({ ok: true });
  });

  it('names a missing header', () => {
    for (const name of ['x-ms-date', 'x-ms-content-sha256', 'host', 'authorization']) {
      const headers: Record<string, string | undefined> = { ...signed() };
      delete headers[name];
      expect(verify(headers)).toEqual({ ok: false, reason: 'MISSING_HEADER' });
    }
    expect(verify({ ...signed(), authorization: ['a', 'b'] })).toEqual({ ok: false, reason: 'MISSING_HEADER' });
  });

  it('refuses a tampered body as a bad content hash', () => {
    expect(verify(signed(), { body: example.body.replace('hello', 'hullo') })).toEqual({ ok: false, reason: 'BAD_CONTENT_HASH' });
  });

  it('refuses a body whose hash header was changed with it as a bad signature', () => {
    const body = example.body.replace('hello', 'hullo');
    const headers = { ...signed(), 'x-ms-content-sha256': signed({ body })['x-ms-content-sha256'] ?? '' };
    expect(verify(headers, { body })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('refuses a tampered path, host, date or secret as a bad signature', () => {
    expect(verify(signed(), { path: `${pathAndQuery}?x=1` })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(verify({ ...signed(), host: 'evil.example' })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(verify({ ...signed(), 'x-ms-date': 'Thu, 30 Mar 2023 08:38:33 GMT' })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    const otherSecret = verifyWebhookRequest({ secret: 'another secret', method: 'POST', pathAndQuery, headers: signed(), body: example.body, now: signedAt });
    expect(otherSecret).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('checks against the host the sender signed when a proxy rewrote the header', () => {
    const headers = { ...signed(), host: 'internal:8080' };
    expect(verifyWebhookRequest({ secret: example.secret, method: 'POST', pathAndQuery, headers, body: example.body, now: signedAt, host: 'webhook.site' })).toEqual({ ok: true });
  });

  it('refuses a well-signed callback older or newer than maxAgeMs as stale', () => {
    expect(verify(signed(), { now: new Date(signedAt.getTime() + 300_001) })).toEqual({ ok: false, reason: 'STALE' });
    expect(verify(signed(), { now: new Date(signedAt.getTime() - 300_001) })).toEqual({ ok: false, reason: 'STALE' });
    expect(verify(signed(), { now: new Date(signedAt.getTime() + 60_000), maxAgeMs: 30_000 })).toEqual({ ok: false, reason: 'STALE' });
  });
});
