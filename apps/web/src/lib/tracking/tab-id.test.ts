import { beforeEach, describe, expect, it } from 'vitest';
import { TAB_ID_KEY, TAB_ID_TTL_MS, tabIdOf } from './tab-id.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('SPEC §9 tab id lasts 30 days', () => {
  beforeEach(() => localStorage.clear());
  let counter = 0;
  const newId = () => `tab-${++counter}`;

  it('is made once and kept until 30 days have passed', () => {
    const start = Date.UTC(2026, 0, 1);
    const first = tabIdOf(localStorage, start, newId);
    expect(tabIdOf(localStorage, start + 29 * DAY, newId)).toBe(first);
    expect(tabIdOf(localStorage, start + TAB_ID_TTL_MS - 1, newId)).toBe(first);
    expect(TAB_ID_TTL_MS).toBe(30 * DAY);
  });

  it('is replaced once 30 days have passed, and the new one lasts 30 days from then', () => {
    const start = Date.UTC(2026, 0, 1);
    const first = tabIdOf(localStorage, start, newId);
    const second = tabIdOf(localStorage, start + TAB_ID_TTL_MS, newId);
    expect(second).not.toBe(first);
    expect(tabIdOf(localStorage, start + TAB_ID_TTL_MS + 29 * DAY, newId)).toBe(second);
  });

  it('is replaced when what is kept is not a tab id', () => {
    localStorage.setItem(TAB_ID_KEY, 'garbage');
    expect(tabIdOf(localStorage, 0, () => 'fresh')).toBe('fresh');
  });
});
