import { describe, expect, it } from 'vitest';
import { createCatalogue } from './catalogue.ts';
import { titleGroups } from './types.ts';

type RawTitle = Record<string, unknown>;

const groups = titleGroups.map((code) => ({ code, name: `Gruppe ${code}` }));

const bank = { creditorAccount: '1503.12.40007', ocrAgreementId: '004200001', kidLength: 15, kidCheckDigit: 'MOD10' };

/** A valid bank setup of its own per title code (two titles may not share an account or agreement). */
function bankFor(titleCode: string) {
  if (titleCode === 'ABC') return bank;
  const serial = [...titleCode].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 0) % 10_000;
  for (let n = serial; ; n += 1) {
    const base = `150399${String(n % 10_000).padStart(4, '0')}`;
    const remainder = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((sum, weight, i) => sum + weight * Number(base[i]), 0) % 11;
    if (remainder === 1) continue;
    return { ...bank, creditorAccount: base + String(remainder === 0 ? 0 : 11 - remainder), ocrAgreementId: String(500_000_000 + n).padStart(9, '0') };
  }
}

function title(titleCode: string, publication: string, overrides: RawTitle = {}): RawTitle {
  return {
    titleCode,
    publication,
    newsroom: publication,
    name: publication,
    group: 'aag',
    pulseProvider: publication,
    sourcepointId: 'abc',
    sourcepointPmId: 1,
    brandColor: '#123456',
    customerCenterPhoneNumber: '72 50 00 00',
    customerCenterEmail: `kundesenter@${publication}.no`,
    organizationNumber: '962806112',
    bank: bankFor(titleCode),
    ...overrides,
  };
}

const fallback = title('POL', 'polarismedia', { group: 'pox' });

function build(...titles: unknown[]) {
  return createCatalogue({ groups, titles: [fallback, ...titles] });
}

function errorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('createCatalogue accepts', () => {
  it('a minimal catalogue and applies the defaults', () => {
    const catalogue = build(title('ABC', 'abc-avis', { play: 'play', language: 'nn', publicationWeekdays: [6, 2] }));
    expect(catalogue.byTitleCode('abc')).toMatchObject({
      baseUrl: 'abc-avis.no',
      playBaseUrl: 'https://play.abc-avis.no',
      language: 'nn',
      publicationWeekdays: [2, 6],
      streamNewsroom: 'abc-avis',
      pausedIssueCreditOre: 0,
      complaintRemedies: ['EXTENSION'],
    });
    expect(catalogue.fallback().titleCode).toBe('POL');
  });

  it('$-prefixed annotation keys', () => {
    const catalogue = createCatalogue({ $comment: 'x', groups, titles: [{ ...fallback, $comment: 'why' }] });
    expect(catalogue.all()).toHaveLength(1);
  });

  it('a bank setup, normalising the account and defaulting the AvtaleGiro account to it', () => {
    expect(build(title('ABC', 'abc')).byTitleCode('ABC').bank).toEqual({
      creditorAccount: '15031240007',
      ocrAgreementId: '004200001',

      avtaleGiroAccount: '15031240007',
      kidLength: 15,
      kidCheckDigit: 'MOD10',
    });
    expect(build(title('ABC', 'abc', { bank: { ...bank, avtaleGiroAccount: '86011117947' } })).byTitleCode('ABC').bank.avtaleGiroAccount).toBe('86011117947');
  });

  it('an explicit contactIsPlaceholder false for real contact details', () => {
    expect(build(title('ABC', 'abc', { contactIsPlaceholder: false })).byTitleCode('ABC').contactIsPlaceholder).toBe(false);
  });
});

describe('createCatalogue rejects', () => {
  it.each<[string, unknown, string]>([
    ['a non-object', 'nope', 'expected an object with "groups" and "titles"'],
    ['missing titles', { groups }, 'titles: must be a non-empty list'],
    ['missing groups', { titles: [fallback] }, 'groups: must be a list'],
    ['an unknown group code', { groups: [...groups, { code: 'zzz', name: 'Z' }], titles: [fallback] }, 'groups[7]: field "code" must be one of'],
    ['a missing group', { groups: groups.slice(1), titles: [fallback] }, 'groups: missing group "aag"'],
    ['a duplicate group', { groups: [...groups, groups[0]], titles: [fallback] }, 'groups[7] (aag): duplicate group code "aag"'],
    ['a group without name', { groups: [...groups.slice(1), { code: 'aag' }], titles: [fallback] }, 'groups[6] (aag): field "name" must be a non-empty string'],
    ['a catalogue without POL', { groups, titles: [title('ABC', 'abc')] }, 'titles: must contain the fallback title POL'],
    ['an excluded POL', { groups, titles: [{ ...fallback, excluded: true }] }, 'the fallback title POL must not be excluded'],
  ])('%s', (_case, raw, message) => {
    expect(errorOf(() => createCatalogue(raw))).toContain(message);
  });

  it.each<[string, unknown, string]>([
    ['a duplicate titleCode', title('POL', 'other'), 'titles[1] (POL): duplicate titleCode "POL" (already used by POL)'],
    ['a duplicate titleCode in another case', title('ABC', 'other', { titleCode: 'POL' }), 'duplicate titleCode "POL"'],
    ['a duplicate publication', title('ABC', 'polarismedia', { newsroom: 'x' }), 'titles[1] (ABC): duplicate publication "polarismedia"'],
    ['a duplicate newsroom', title('ABC', 'abc', { newsroom: 'polarismedia' }), 'titles[1] (ABC): duplicate newsroom "polarismedia"'],
    ['a duplicate baseUrl', title('ABC', 'abc', { baseUrl: 'polarismedia.no' }), 'titles[1] (ABC): duplicate baseUrl "polarismedia.no"'],
    ['an unknown group', title('ABC', 'abc', { group: 'zzz' }), 'titles[1] (ABC): field "group" must be one of "aag"'],
    ['a bad colour', title('ABC', 'abc', { brandColor: 'red' }), 'titles[1] (ABC): field "brandColor" must be a #rrggbb colour, got "red"'],
    ['a short colour', title('ABC', 'abc', { brandColor: '#123' }), 'field "brandColor" must be a #rrggbb colour'],
    ['a missing name', title('ABC', 'abc', { name: undefined }), 'titles[1] (ABC): field "name" must be a non-empty string, got nothing'],
    ['a missing pulseProvider', title('ABC', 'abc', { pulseProvider: undefined }), 'field "pulseProvider" must be a string or null'],
    ['a missing titleCode', title('ABC', 'abc', { titleCode: undefined }), 'titles[1]: field "titleCode" must be an upper-case code'],
    ['a lower-case titleCode', title('abc', 'abc'), 'titles[1] (abc): field "titleCode" must be an upper-case code'],
    ['a publication that is no DNS label', title('ABC', 'Abc Avis'), 'field "publication" must be a lower-case slug'],
    ['a baseUrl with scheme', title('ABC', 'abc', { baseUrl: 'https://abc.no' }), 'field "baseUrl" must be a lower-case host name'],
    ['a baseUrl with www.', title('ABC', 'abc', { baseUrl: 'www.abc.no' }), 'field "baseUrl" must be the bare title domain'],
    ['an unknown play subdomain', title('ABC', 'abc', { play: 'video' }), 'field "play" must be one of "tv", "play" or false'],
    ['an unknown language', title('ABC', 'abc', { language: 'en' }), 'field "language" must be one of "nb", "nn"'],
    ['a string licence flag', title('ABC', 'abc', { hasVgLiveLicense: 'yes' }), 'field "hasVgLiveLicense" must be true or false'],
    ['a fractional sourcepointPmId', title('ABC', 'abc', { sourcepointPmId: 1.5 }), 'field "sourcepointPmId" must be a positive integer'],
    ['a bad weekday', title('ABC', 'abc', { publicationWeekdays: [0, 1] }), 'field "publicationWeekdays" must be a non-empty list'],
    ['repeated weekdays', title('ABC', 'abc', { publicationWeekdays: [1, 1] }), 'field "publicationWeekdays" must be a non-empty list'],
    ['a negative credit per paused issue', title('ABC', 'abc', { pausedIssueCreditOre: -1 }), 'field "pausedIssueCreditOre" must be a whole number'],
    ['an unknown complaint remedy', title('ABC', 'abc', { complaintRemedies: ['REFUND'] }), 'field "complaintRemedies" must be a non-empty list'],
    ['no complaint remedy', title('ABC', 'abc', { complaintRemedies: [] }), 'field "complaintRemedies" must be a non-empty list'],
    ['a bad e-mail', title('ABC', 'abc', { customerCenterEmail: 'kundesenter' }), 'field "customerCenterEmail" must be an e-mail address'],
    ['a bad phone number', title('ABC', 'abc', { customerCenterPhoneNumber: 'ring oss' }), 'field "customerCenterPhoneNumber" must be a phone number'],
    ['an 8-digit organisation number', title('ABC', 'abc', { organizationNumber: '96280611' }), 'field "organizationNumber" must be a 9-digit'],
    ['a failing MOD11 check', title('ABC', 'abc', { organizationNumber: '962806113' }), 'field "organizationNumber" fails the MOD11 check digit'],
    ['no bank setup', title('ABC', 'abc', { bank: undefined }), 'titles[1] (ABC): field "bank" must be an object'],
    [
      'a creditor account failing MOD11',
      title('ABC', 'abc', { bank: { ...bank, creditorAccount: '15031240008' } }),
      'field "bank.creditorAccount" must be an 11-digit account number with a valid MOD11 check digit',
    ],
    ['a short AvtaleGiro account', title('ABC', 'abc', { bank: { ...bank, avtaleGiroAccount: '1503124000' } }), 'field "bank.avtaleGiroAccount" must be an 11-digit'],
    ['an 8-digit OCR agreement id', title('ABC', 'abc', { bank: { ...bank, ocrAgreementId: '04200001' } }), 'field "bank.ocrAgreementId" must be 9 digits'],
    ['a KID too short for invoice numbers', title('ABC', 'abc', { bank: { ...bank, kidLength: 9 } }), 'field "bank.kidLength" must be a whole number from 10 to 25'],
    ['a KID longer than banks take', title('ABC', 'abc', { bank: { ...bank, kidLength: 26 } }), 'field "bank.kidLength" must be a whole number from 10 to 25'],
    ['an unknown check digit scheme', title('ABC', 'abc', { bank: { ...bank, kidCheckDigit: 'LUHN' } }), 'field "bank.kidCheckDigit" must be one of "MOD10", "MOD11"'],
    ['a typo in a bank field', title('ABC', 'abc', { bank: { ...bank, kidlength: 15 } }), 'unknown field "bank.kidlength"'],
    ['a typo in a field name', title('ABC', 'abc', { baseURL: 'abc.no' }), 'titles[1] (ABC): unknown field "baseURL"'],
    ['a non-object entry', 42, 'titles[1]: must be an object, got 42'],
  ])('%s', (_case, raw, message) => {
    const error = errorOf(() => build(raw));
    expect(error).toMatch(/^Invalid title catalogue:/);
    expect(error).toContain(message);
  });

  it('refuses two titles with one bank account or OCR agreement (bank files name the title by them)', () => {
    const pol = bankFor('POL');
    expect(errorOf(() => build(title('ABC', 'abc', { bank: { ...bank, creditorAccount: pol.creditorAccount } })))).toContain(
      `titles[1] (ABC): bank.creditorAccount "${pol.creditorAccount}" is already used by POL`,
    );
    expect(errorOf(() => build(title('ABC', 'abc', { bank: { ...bank, ocrAgreementId: pol.ocrAgreementId } })))).toContain(`bank.ocrAgreementId "${pol.ocrAgreementId}" is already used by POL`);
    expect(errorOf(() => build(title('ABC', 'abc', { bank: { ...bank, avtaleGiroAccount: pol.creditorAccount } })))).toContain(
      `bank.avtaleGiroAccount "${pol.creditorAccount}" is already used by POL`,
    );
    expect(build(title('ABC', 'abc')).byTitleCode('ABC').bank.creditorAccount).toBe('15031240007');
  });

  it('lists every problem at once', () => {
    const error = errorOf(() => build(title('ABC', 'abc', { brandColor: 'red', group: 'zzz' }), title('ABC', 'abd')));
    expect(error.split('\n').slice(1)).toEqual([expect.stringContaining('field "group"'), expect.stringContaining('field "brandColor"'), expect.stringContaining('duplicate titleCode "ABC"')]);
  });
});
