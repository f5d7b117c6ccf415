import { describe, expect, it } from 'vitest';
import { shareableUrl } from './shareable-url.ts';

describe('shareableUrl', () => {
  it('keeps tracking, UTM and experiment parameters and removes every other one', () => {
    expect(shareableUrl('https://minside.adressa.no/betaling?token=eyJ.secret&utm_source=epost&exp=a:b')).toBe('https://minside.adressa.no/betaling?utm_source=epost&exp=a%3Ab');
    expect(shareableUrl('https://minside.adressa.no/verifiser-familiemedlem?token=abc')).toBe('https://minside.adressa.no/verifiser-familiemedlem');
    expect(shareableUrl('https://minside.adressa.no/callback?code=x&state=y#frag')).toBe('https://minside.adressa.no/callback');
    expect(shareableUrl('https://minside.adressa.no/bestill-abonnement?campaignID=CAMP-2020-03-003&source=artikkel')).toBe(
      'https://minside.adressa.no/bestill-abonnement?campaignID=CAMP-2020-03-003&source=artikkel',
    );
  });

  it('replaces pay-link tokens in API paths, and gives up on what is not a URL', () => {
    expect(shareableUrl('https://minside.adressa.no/api/paylink/eyJ.secret/payment')).toBe('https://minside.adressa.no/api/paylink/[token]/payment');
    expect(shareableUrl('not a url')).toBe('');
  });
});
