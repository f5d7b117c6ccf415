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

  // Issue 20.1: the router and the query parser decode what they read, so the redaction reads the same way.
  it('hides them however the URL spells them', () => {
    expect(redactUrl('/%61pi/paylink/eyJhbGciOi.abc')).toBe('/%61pi/paylink/[redacted]');
    expect(redactUrl('/api/%70aylink/eyJhbGciOi.abc/payment')).toBe('/api/%70aylink/[redacted]/payment');
    expect(redactUrl('/callback?%63ode=abc&st%61te=def')).toBe('/callback?%63ode=[redacted]&st%61te=[redacted]');
    expect(redactUrl('/callback?x=1&co%64e=abc#f')).toBe('/callback?x=1&co%64e=[redacted]#f');
    expect(redactUrl('/callback?code=abc%ZZ&token')).toBe('/callback?code=[redacted]&token');
    expect(redactUrl('/x/%E0%A4%A?code=1')).toBe('/x/%E0%A4%A?code=[redacted]');
  });
});
