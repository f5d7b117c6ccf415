import { describe, expect, it } from 'vitest';
import { createCatalogue, defaultCatalogue, defaultCatalogueDocument } from './catalogue.ts';
import { diffCatalogues, diffLines, isEmptyDiff } from './diff.ts';

type Raw = { groups: { code: string; name: string }[]; titles: Record<string, unknown>[] };
const raw = () => structuredClone(defaultCatalogueDocument) as Raw;
const entry = (document: Raw, code: string) => document.titles.find((title) => title['titleCode'] === code)!;

describe('diffCatalogues', () => {
  it('finds nothing between a catalogue and itself, nor when a default is written out', () => {
    expect(isEmptyDiff(diffCatalogues(defaultCatalogue, createCatalogue(raw())))).toBe(true);
    const document = raw();
    entry(document, 'VAR')['language'] ??= 'nb';
    entry(document, 'VAR')['complaintRemedies'] ??= ['EXTENSION'];
    expect(isEmptyDiff(diffCatalogues(defaultCatalogue, createCatalogue(document)))).toBe(true);
  });

  it('lists added, removed and changed titles, flags contact details, and names changed groups', () => {
    const document = raw();
    const varden = entry(document, 'VAR');
    // The new title takes over the bank setup of the one removed (two titles never share an account).
    document.titles.push({ ...varden, titleCode: 'NYA', publication: 'nyavisa', newsroom: 'nyavisa', name: 'Ny Avis', baseUrl: 'nyavisa.no', bank: entry(document, 'KUL')['bank'] });
    document.titles = document.titles.filter((title) => title['titleCode'] !== 'KUL');
    entry(document, 'ADR')['customerCenterEmail'] = 'abonnement@adresseavisen.no';
    entry(document, 'ADR')['brandColor'] = '#000000';
    document.groups[0]!.name = 'Adresseavisen-gruppen';
    const before = defaultCatalogue;
    const diff = diffCatalogues(before, createCatalogue(document));
    expect(diff.added.map((title) => title.titleCode)).toEqual(['NYA']);
    expect(diff.removed.map((title) => title.titleCode)).toEqual(['KUL']);
    expect(diff.changed).toEqual([
      { titleCode: 'ADR', field: 'brandColor', from: before.byTitleCode('ADR').brandColor, to: '#000000', contact: false },
      { titleCode: 'ADR', field: 'customerCenterEmail', from: before.byTitleCode('ADR').customerCenterEmail, to: 'abonnement@adresseavisen.no', contact: true },
    ]);
    expect(diffLines(diff)).toEqual([
      '+ NYA Ny Avis (added)',
      `- KUL ${before.byTitleCode('KUL').name} (removed)`,
      `~ ADR brandColor: "${before.byTitleCode('ADR').brandColor}" -> "#000000"`,
      `~ ADR customerCenterEmail: "${before.byTitleCode('ADR').customerCenterEmail}" -> "abonnement@adresseavisen.no" (contact details)`,
      `~ group aag name: "${before.group('aag').name}" -> "Adresseavisen-gruppen"`,
      '1 added, 1 removed, 1 changed (1 contact detail), 1 group name changed.',
    ]);
  });
});
