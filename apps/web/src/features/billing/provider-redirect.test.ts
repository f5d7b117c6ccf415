import { describe, expect, it, vi } from 'vitest';
import { goToProvider } from './provider-redirect.ts';

describe('sending the browser to the payment provider', () => {
  it('follows http(s) URLs, relative ones on our origin', () => {
    const assign = vi.fn();
    goToProvider('/_dev/pay/abc', { assign, origin: 'http://adresseavisen.localhost:3000' });
    goToProvider('https://pay.example.no/checkout?id=1', { assign, origin: 'http://adresseavisen.localhost:3000' });
    expect(assign.mock.calls).toEqual([['http://adresseavisen.localhost:3000/_dev/pay/abc'], ['https://pay.example.no/checkout?id=1']]);
  });

  it('never follows a script URL', () => {
    const assign = vi.fn();
    expect(() => goToProvider('javascript:alert(1)', { assign, origin: 'https://minside.adressa.no' })).toThrow();
    expect(assign).not.toHaveBeenCalled();
  });
});
