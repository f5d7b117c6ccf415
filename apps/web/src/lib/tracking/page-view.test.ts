import { describe, expect, it } from 'vitest';
import { pageTypeOf, shouldTrackPageView } from './page-view.ts';

describe('SPEC §4 step 6 and §7 page views', () => {
  it('are tracked after every route except /callback', () => {
    expect(shouldTrackPageView('/')).toBe(true);
    expect(shouldTrackPageView('/kundeservice')).toBe(true);
    expect(shouldTrackPageView('/callback-info')).toBe(true);
    expect(shouldTrackPageView('/callback')).toBe(false);
    expect(shouldTrackPageView('/callback/')).toBe(false);
  });

  it('carry the lowercased page type', () => {
    expect(pageTypeOf('deliveryAddress')).toBe('deliveryaddress');
    expect(pageTypeOf('home')).toBe('home');
    expect(pageTypeOf('spidTakeoutGateway')).toBe('spidtakeoutgateway');
  });
});
