import { beforeEach, describe, expect, it } from 'vitest';
import { EXPERIMENTS_KEY, experimentsFromSearch, readExperiments, storeExperiments, type Experiment } from './experiments.ts';

const banner: Experiment = { id: 'banner', name: 'banner', variant: 'b', platform: 'minside' };
const price: Experiment = { id: 'price', name: 'price', variant: 'a', platform: 'minside' };

describe('SPEC §5 experiments', () => {
  beforeEach(() => localStorage.clear());

  it('are not stored without analytics consent', () => {
    expect(storeExperiments(localStorage, [banner], false)).toBe(false);
    expect(localStorage.getItem(EXPERIMENTS_KEY)).toBeNull();
  });

  it('are stored under the key "experiments" with analytics consent (SPEC §9)', () => {
    expect(storeExperiments(localStorage, [banner], true)).toBe(true);
    expect(JSON.parse(localStorage.getItem('experiments') ?? '')).toEqual([banner]);
  });

  it('keep the newest variant of an experiment and the others', () => {
    storeExperiments(localStorage, [banner, price], true);
    storeExperiments(localStorage, [{ ...banner, variant: 'c' }], true);
    expect(readExperiments(localStorage)).toEqual([{ ...banner, variant: 'c' }, price]);
  });

  it('are used only when they form a non-empty array', () => {
    const used = (raw: string) => {
      localStorage.setItem(EXPERIMENTS_KEY, raw);
      return readExperiments(localStorage);
    };
    expect(used('[]')).toBeUndefined();
    expect(used('{"id":"banner"}')).toBeUndefined();
    expect(used('"banner"')).toBeUndefined();
    expect(used('null')).toBeUndefined();
    expect(used('not json')).toBeUndefined();
    expect(used('[{"id":"x"}]')).toBeUndefined();
    expect(used(JSON.stringify([banner]))).toEqual([banner]);
    localStorage.removeItem(EXPERIMENTS_KEY);
    expect(readExperiments(localStorage)).toBeUndefined();
  });

  it('come from links as exp={id}:{variant}, malformed ones ignored', () => {
    const search = new URLSearchParams('exp=banner:b&exp=price:a&exp=broken&exp=a:b:c&exp=<script>:x');
    expect(experimentsFromSearch(search)).toEqual([banner, price]);
  });
});
