import { describe, expect, it } from 'vitest';
import { changeKinds, describeChange } from './change-log.ts';
import { formatKroner, formatLongDate } from '../core/format.ts';

describe('change log texts', () => {
  it('formats dates and kroner in Norwegian', () => {
    expect(formatLongDate('2026-03-05')).toBe('5. mars 2026');
    expect(formatKroner(299_000)).toBe('2\u00a0990\u00a0kr');
    expect(formatKroner(13_800)).toBe('138\u00a0kr');
  });
  it('has a sentence for every kind', () => {
    for (const kind of changeKinds) expect(describeChange(kind, { planName: 'Digital', on: '2026-03-05' })).toMatch(/\.$/);
  });
  it('says what changed', () => {
    expect(describeChange('cancelled', { on: '2026-03-22', reason: 'Det er for dyrt' })).toBe('Abonnementet ble sagt opp og løper ut 21. mars 2026. Årsak: Det er for dyrt.');
    expect(describeChange('planChanged', { fromPlanName: 'Digital', planName: 'Komplett', billingPeriod: 'MONTH', amountOre: 13_800 })).toBe(
      'Byttet fra Digital til Komplett (månedlig). Mellomlegg for resten av perioden: 138\u00a0kr.',
    );
    expect(describeChange('planChangeScheduled', { planName: 'Digital', billingPeriod: 'YEAR', on: '2026-03-22' })).toBe('Bytte til Digital (årlig) er bestilt fra 22. mars 2026.');
    expect(describeChange('trialEnded', { planName: 'Digital', billingPeriod: 'MONTH', amountOre: 29_900, on: '2026-03-22' })).toBe(
      'Prøveperioden er over. Digital fortsetter til ordinær pris, 299\u00a0kr per måned.',
    );
    expect(describeChange('trialEnded', {})).toBe('Prøveperioden er over. Abonnementet fortsetter til ordinær pris.');
  });
});
