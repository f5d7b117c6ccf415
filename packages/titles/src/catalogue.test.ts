import { describe, expect, it } from 'vitest';
import data from '../data/titles.json' with { type: 'json' };
import { createCatalogue, defaultCatalogue } from './catalogue.ts';
import { isValidOrganizationNumber } from './organization-number.ts';
import { titleGroups } from './types.ts';

const catalogue = defaultCatalogue;
const excludedCodes = ['XX', 'VI', 'RUI', 'KOF', 'KUL'];

describe('lookups', () => {
  it.each([
    ['adresseavisen', 'ADR'],
    ['varden', 'VAR'],
    ['faedrelandsvennen', 'FVN'],
    ['Adresseavisen', 'ADR'],
  ])('byPublication(%s) finds %s', (publication, code) => {
    expect(catalogue.byPublication(publication)?.titleCode).toBe(code);
  });

  it.each([
    ['adressa', 'ADR'],
    ['varden', 'VAR'],
    ['smp', 'SMP'],
    ['ADRESSA', 'ADR'],
  ])('byNewsroom(%s) finds %s', (newsroom, code) => {
    expect(catalogue.byNewsroom(newsroom)?.titleCode).toBe(code);
  });

  it.each([
    ['ADR', 'adresseavisen'],
    ['adr', 'adresseavisen'],
    ['Adr', 'adresseavisen'],
    ['VAR', 'varden'],
    ['var', 'varden'],
  ])('byTitleCode(%s) is publication %s', (code, publication) => {
    expect(catalogue.byTitleCode(code).publication).toBe(publication);
    expect(catalogue.findByTitleCode(code)?.publication).toBe(publication);
  });

  it('returns undefined for unknown publication, newsroom and findByTitleCode', () => {
    expect(catalogue.byPublication('nope')).toBeUndefined();
    expect(catalogue.byNewsroom('nope')).toBeUndefined();
    expect(catalogue.findByTitleCode('XYZ')).toBeUndefined();
  });

  it('throws the SPEC error for an unknown titleCode', () => {
    expect(() => catalogue.byTitleCode('XYZ')).toThrowError(new Error('No publication config found for titleCode XYZ'));
  });

  it('names ADR Adresseavisen on adressa.no and VAR Varden on varden.no', () => {
    expect(catalogue.byTitleCode('ADR')).toMatchObject({ name: 'Adresseavisen', baseUrl: 'adressa.no', group: 'aag' });
    expect(catalogue.byTitleCode('VAR')).toMatchObject({ name: 'Varden', baseUrl: 'varden.no' });
  });

  it('has POL as the offered fallback', () => {
    const fallback = catalogue.fallback();
    expect(fallback).toMatchObject({ titleCode: 'POL', name: 'Polaris Media', publication: 'polarismedia', baseUrl: 'polarismedia.no', excluded: false });
    expect(catalogue.offered()).toContain(fallback);
  });

  it.each(titleGroups)('group(%s) has a name for the copyright line', (code) => {
    const group = catalogue.group(code);
    expect(group.code).toBe(code);
    expect(group.name.length).toBeGreaterThan(3);
  });

  it('names the Trøndelag group', () => {
    expect(catalogue.group(catalogue.byTitleCode('ADR').group).name).toBe('Adresseavisen Gruppen');
  });
});

describe('SPEC §9 codes', () => {
  it.each(['AN', 'VA'])('%s has no pulse provider', (code) => {
    expect(catalogue.byTitleCode(code).pulseProvider).toBeNull();
  });

  it('every other title has a pulse provider', () => {
    const withoutPulse = catalogue
      .all()
      .filter((entry) => entry.pulseProvider === null)
      .map((entry) => entry.titleCode);
    expect(withoutPulse.sort()).toEqual(['AN', 'VA']);
  });

  it.each(excludedCodes)('%s is in the catalogue, excluded and not offered', (code) => {
    const entry = catalogue.byTitleCode(code);
    expect(entry.excluded).toBe(true);
    expect(catalogue.all()).toContain(entry);
    expect(catalogue.offered()).not.toContain(entry);
  });

  it('excludes exactly the SPEC codes', () => {
    const excluded = catalogue
      .all()
      .filter((entry) => entry.excluded)
      .map((entry) => entry.titleCode);
    expect(excluded.sort()).toEqual([...excludedCodes].sort());
  });
});

describe('defaults', () => {
  // Namdalsavisa's raw entry sets none of the defaulted fields.
  const plain = catalogue.byTitleCode('NAM');

  it('fills every defaulted field of a minimal entry', () => {
    expect(plain).toMatchObject({
      language: 'nb',
      streamNewsroom: 'namdalsavisa',
      baseUrl: 'namdalsavisa.no',
      pageUrl: 'https://www.namdalsavisa.no',
      minsideUrl: 'https://minside.namdalsavisa.no',
      playBaseUrl: 'https://tv.namdalsavisa.no',
      hasNtbLiveLicense: false,
      hasVgLiveLicense: false,
      excluded: false,
      contactIsPlaceholder: true,
      publicationWeekdays: [1, 2, 3, 4, 5, 6],
      pausedIssueCreditOre: 0,
      complaintRemedies: ['EXTENSION'],
    });
  });

  it.each([
    ['NAM', 'https://tv.namdalsavisa.no'],
    ['ADR', 'https://tv.adressa.no'],
    ['SMP', 'https://play.smp.no'],
    ['RB', 'https://play.rbnett.no'],
    ['SVP', null],
    ['POL', null],
  ])('%s playBaseUrl is %s', (code, playBaseUrl) => {
    expect(catalogue.byTitleCode(code).playBaseUrl).toBe(playBaseUrl);
  });

  it('defaults streamNewsroom to the publication even when newsroom differs', () => {
    expect(catalogue.byTitleCode('FVN')).toMatchObject({ newsroom: 'fvn', publication: 'faedrelandsvennen', streamNewsroom: 'faedrelandsvennen' });
  });

  it.each([
    ['ADR', 'adressa.no', 'https://www.adressa.no', 'https://minside.adressa.no'],
    ['FVN', 'fvn.no', 'https://www.fvn.no', 'https://minside.fvn.no'],
    ['SMP', 'smp.no', 'https://www.smp.no', 'https://minside.smp.no'],
    ['VAR', 'varden.no', 'https://www.varden.no', 'https://minside.varden.no'],
    ['ITR', 'itromso.no', 'https://www.itromso.no', 'https://minside.itromso.no'],
  ])('%s lives on %s', (code, baseUrl, pageUrl, minsideUrl) => {
    expect(catalogue.byTitleCode(code)).toMatchObject({ baseUrl, pageUrl, minsideUrl });
  });

  it('keeps explicit overrides', () => {
    expect(catalogue.byTitleCode('ADR')).toMatchObject({
      streamNewsroom: 'adressa',
      hasNtbLiveLicense: true,
      hasVgLiveLicense: true,
    });
    expect(catalogue.byTitleCode('SVP').publicationWeekdays).toEqual([5]);
  });

  it('has Nynorsk titles', () => {
    const nynorsk = catalogue
      .offered()
      .filter((entry) => entry.language === 'nn')
      .map((entry) => entry.titleCode);
    expect(nynorsk).toEqual(expect.arrayContaining(['FIR', 'SOA', 'FJT', 'VLN', 'MN']));
    expect(catalogue.byTitleCode('SMP').language).toBe('nb');
  });
});

describe('the built-in data', () => {
  it('offers about 60 titles', () => {
    expect(catalogue.offered().length).toBeGreaterThanOrEqual(55);
    expect(catalogue.offered().length).toBeLessThanOrEqual(70);
    expect(catalogue.all()).toHaveLength(catalogue.offered().length + excludedCodes.length);
  });

  it('marks every contact as a placeholder and uses the title domain for e-mail', () => {
    for (const entry of catalogue.all()) {
      expect(entry.contactIsPlaceholder, entry.titleCode).toBe(true);
      expect(entry.customerCenterEmail, entry.titleCode).toBe(`kundesenter@${entry.baseUrl}`);
      expect(isValidOrganizationNumber(entry.organizationNumber), entry.titleCode).toBe(true);
    }
  });

  it('uses every group', () => {
    const used = new Set(catalogue.all().map((entry) => entry.group));
    expect([...used].sort()).toEqual([...titleGroups].sort());
  });

  it('keeps any id unambiguous across titleCode, publication and newsroom', () => {
    // The server looks an id up by code, then publication, then newsroom; each must hit one title.
    for (const entry of catalogue.all()) {
      for (const id of [entry.titleCode, entry.publication, entry.newsroom]) {
        const hit = catalogue.findByTitleCode(id) ?? catalogue.byPublication(id) ?? catalogue.byNewsroom(id);
        expect(hit?.titleCode, `${entry.titleCode} via ${id}`).toBe(entry.titleCode);
      }
    }
  });

  it('freezes entries so callers cannot alter the shared catalogue', () => {
    const entry = catalogue.byTitleCode('ADR');
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry.publicationWeekdays)).toBe(true);
  });

  it('is rebuilt identically from the same JSON', () => {
    expect(createCatalogue(data).all()).toEqual(catalogue.all());
  });
});

describe('isValidOrganizationNumber', () => {
  it.each([
    ['962806112', true],
    ['962806113', false],
    ['12345678', false],
    ['96280611a', false],
  ])('%s → %s', (value, valid) => {
    expect(isValidOrganizationNumber(value)).toBe(valid);
  });
});
