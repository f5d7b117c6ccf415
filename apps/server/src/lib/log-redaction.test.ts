import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides codes, states and token hints, and keeps the rest', () => {
    expect(redactUrl('/callback?code=abc&state=def&iss=x')).toBe('/callback?code=[redacted]&state=[redacted]&iss=x');
    expect(redactUrl('/idp/session/end?id_token_hint=eyJ.a.b&post_logout_redirect_uri=%2F')).toBe('/idp/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=%2F');
    expect(redactUrl('/api/title/ADR')).toBe('/api/title/ADR');
    expect(redactUrl('/x?encode=1')).toBe('/x?encode=1');
  });

  it('hides pay-link tokens in the path', () => {
    expect(redactUrl('/api/paylink/eyJhbGciOi.abc')).toBe('/api/paylink/[redacted]');
    expect(redactUrl('/api/paylink/eyJhbGciOi.abc/payment?x=1')).toBe('/api/paylink/[redacted]/payment?x=1');
    expect(redactUrl('/betaling?token=abc&paymentId=p')).toBe('/betaling?token=[redacted]&paymentId=p');
  });
});
