import { describe, expect, it } from 'vitest';
import { contentLinks } from './content-links.ts';

const title = { name: 'Adresseavisen', pageUrl: 'https://www.adressa.no', playBaseUrl: 'https://tv.adressa.no' };
const none = { plusContent: false, ePaper: false, paper: false, familySharing: false, thirdPartyBundle: false };

describe('my content per feature set', () => {
  it('everything for a complete subscription', () => {
    const all = { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: true };
    expect(contentLinks(all, title, true).map((link) => [link.key, link.href])).toEqual([
      ['site', 'https://www.adressa.no'],
      ['epaper', 'https://www.adressa.no/eavis/'],
      ['play', 'https://tv.adressa.no'],
      ['paper', '/endre-avislevering'],
      ['family', '/familiedeling'],
      ['bundle', 'https://www.adressa.no/fordeler/'],
    ]);
  });
  it('only the site without features; no play without a play URL; no sharing for members', () => {
    expect(contentLinks(none, title, true).map((link) => link.key)).toEqual(['site']);
    expect(contentLinks({ ...none, plusContent: true }, { ...title, playBaseUrl: null }, true).map((link) => link.key)).toEqual(['site']);
    expect(contentLinks({ ...none, familySharing: true }, title, false).map((link) => link.key)).toEqual(['site']);
  });
});
