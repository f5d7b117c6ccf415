import { describe, expect, it } from 'vitest';
import { classifyReferrer } from './referrer.ts';

describe('SPEC §2 referrer classes', () => {
  it.each([
    ['https://www.adressa.no/i/Kv8xQ2/dette-skjedde', { kind: 'article', articleId: 'Kv8xQ2' }],
    ['https://www.adressa.no/i/Kv8xQ2', { kind: 'article', articleId: 'Kv8xQ2' }],
    ['https://tv.adressa.no/video/123456/kampen', { kind: 'video', videoId: '123456' }],
    ['https://www.adressa.no/redirect/?url=x', { kind: 'redirect' }],
    ['https://www.adressa.no/redirect', { kind: 'redirect' }],
    ['https://www.adressa.no/', { kind: 'frontpage' }],
    ['https://www.adressa.no', { kind: 'frontpage' }],
    ['https://www.adressa.no/sport', { kind: 'other' }],
    ['https://www.adressa.no/ia/123/', { kind: 'other' }],
    ['https://www.adressa.no/i/', { kind: 'other' }],
  ])('%s', (referrer, expected) => {
    expect(classifyReferrer(referrer)).toMatchObject(expected);
  });

  it('is none without a referrer, or with one that is not a URL', () => {
    expect(classifyReferrer('')).toEqual({ kind: 'none' });
    expect(classifyReferrer(null)).toEqual({ kind: 'none' });
    expect(classifyReferrer('not a url')).toEqual({ kind: 'none' });
  });

  it('keeps the full referrer URL alongside the class', () => {
    expect(classifyReferrer('https://www.adressa.no/i/abc/')).toEqual({ kind: 'article', articleId: 'abc', url: 'https://www.adressa.no/i/abc/' });
  });
});
