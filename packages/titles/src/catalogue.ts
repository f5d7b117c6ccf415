import data from '../data/titles.json' with { type: 'json' };
import { isValidBankAccountNumber } from './bank-account.ts';
import { titleGroups } from './types.ts';
import { isValidOrganizationNumber } from './organization-number.ts';
import type { Catalogue, ComplaintRemedyName, KidCheckDigit, PostalAddress, PublicationConfig, TitleBankSetup, TitleGroup, TitleGroupInfo, TitleLanguage, TitleSeller } from './types.ts';

/** The code whose entry `fallback()` returns (SPEC §4: used when nothing else resolves). */
const FALLBACK_TITLE_CODE = 'POL';

const defaultPlaySubdomain = 'tv';
const playSubdomains = ['tv', 'play'] as const;
const languages: readonly TitleLanguage[] = ['nb', 'nn'];
const defaultPublicationWeekdays = [1, 2, 3, 4, 5, 6];
const complaintRemedyNames = ['REDELIVERY', 'EXTENSION', 'CREDIT'] as const;
const defaultComplaintRemedies: ComplaintRemedyName[] = ['EXTENSION'];

const titleKeys = new Set([
  'newsroom',
  'publication',
  'name',
  'group',
  'titleCode',
  'pulseProvider',
  'sourcepointId',
  'sourcepointPmId',
  'language',
  'streamNewsroom',
  'baseUrl',
  'play',
  'hasNtbLiveLicense',
  'hasVgLiveLicense',
  'excluded',
  'brandColor',
  'customerCenterPhoneNumber',
  'customerCenterEmail',
  'organizationNumber',
  'contactIsPlaceholder',
  'publicationWeekdays',
  'pausedIssueCreditOre',
  'complaintRemedies',
  'bank',
  'vippsMerchantSerialNumber',
  'seller',
  'ageSelfDeclaration',
]);
const sellerKeys = new Set(['legalName', 'street', 'postalCode', 'town', 'vatRegistered']);
const addressKeys = new Set(['street', 'postalCode', 'town']);
const postalCodePattern = /^\d{4}$/;

const bankKeys = new Set(['creditorAccount', 'ocrAgreementId', 'avtaleGiroAccount', 'kidLength', 'kidCheckDigit']);
const kidCheckDigits: readonly KidCheckDigit[] = ['MOD10', 'MOD11'];
/** Bounds of a title's KID length: the invoice number and a kind digit must fit, and banks take 25 at most. */
export const KID_LENGTH_MIN = 10;
export const KID_LENGTH_MAX = 25;

// The publication slug doubles as the `{publication}.localhost` dev host, so it must be a DNS label.
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const titleCodePattern = /^[A-Z][A-Z0-9]*$/;
const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;
const colourPattern = /^#[0-9a-fA-F]{6}$/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^\+?[0-9][0-9 ]{4,}[0-9]$/;

type RawObject = Record<string, unknown>;

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Collects every problem rather than stopping at the first, so an operator fixing a
 * TITLES_FILE sees the whole list in one go.
 */
class Problems {
  readonly messages: string[] = [];
  add(where: string, message: string): void {
    this.messages.push(`${where}: ${message}`);
  }
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Reads one raw entry field by field; every getter records a problem and returns a harmless stand-in. */
class EntryReader {
  constructor(
    private readonly raw: RawObject,
    private readonly where: string,
    private readonly problems: Problems,
  ) {}

  private fail(field: string, expected: string): void {
    this.problems.add(this.where, `field "${field}" must be ${expected}, got ${describe(this.raw[field])}`);
  }

  string(field: string, pattern?: RegExp, expected = 'a non-empty string'): string {
    const value = this.raw[field];
    if (typeof value !== 'string' || value.trim() === '' || (pattern && !pattern.test(value))) {
      this.fail(field, expected);
      return '';
    }
    return value;
  }

  optionalString(field: string, fallback: string, pattern?: RegExp, expected?: string): string {
    return this.raw[field] === undefined ? fallback : this.string(field, pattern, expected);
  }

  nullableString(field: string): string | null {
    const value = this.raw[field];
    if (value === undefined) {
      this.fail(field, 'a string or null (required; null means no pulse tracking)');
      return null;
    }
    if (value === null) return null;
    return this.string(field, undefined, 'a non-empty string or null');
  }

  /** Absent or null: null; otherwise a string as `string` reads it. */
  optionalNullableString(field: string, pattern: RegExp, expected: string): string | null {
    const value = this.raw[field];
    return value === undefined || value === null ? null : this.string(field, pattern, expected);
  }

  positiveInteger(field: string): number {
    const value = this.raw[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      this.fail(field, 'a positive integer');
      return 0;
    }
    return value;
  }

  optionalBoolean(field: string, fallback: boolean): boolean {
    const value = this.raw[field];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      this.fail(field, 'true or false');
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], fallback?: T): T {
    const value = this.raw[field];
    if (value === undefined && fallback !== undefined) return fallback;
    const match = allowed.find((candidate) => candidate === value);
    if (match === undefined) {
      this.fail(field, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
      return allowed[0] as T;
    }
    return match;
  }

  /** The play subdomain; `false` in the data means the title has no play site. */
  play(): string | null {
    const value = this.raw['play'];
    if (value === undefined) return defaultPlaySubdomain;
    if (value === false) return null;
    const match = playSubdomains.find((candidate) => candidate === value);
    if (match === undefined) {
      this.fail('play', `one of ${playSubdomains.map((p) => `"${p}"`).join(', ')} or false`);
      return null;
    }
    return match;
  }

  weekdays(): number[] {
    const value = this.raw['publicationWeekdays'];
    if (value === undefined) return [...defaultPublicationWeekdays];
    const valid = Array.isArray(value) && value.length > 0 && value.every((day) => Number.isInteger(day) && day >= 1 && day <= 7) && new Set(value).size === value.length;
    if (!valid) {
      this.fail('publicationWeekdays', 'a non-empty list of distinct ISO weekdays 1-7');
      return [...defaultPublicationWeekdays];
    }
    return [...(value as number[])].sort((a, b) => a - b);
  }

  nonNegativeInteger(field: string, fallback: number): number {
    const value = this.raw[field];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      this.fail(field, 'a whole number, 0 or more');
      return fallback;
    }
    return value;
  }

  remedies(): ComplaintRemedyName[] {
    const value = this.raw['complaintRemedies'];
    if (value === undefined) return [...defaultComplaintRemedies];
    const valid = Array.isArray(value) && value.length > 0 && value.every((remedy) => complaintRemedyNames.includes(remedy as ComplaintRemedyName)) && new Set(value).size === value.length;
    if (!valid) {
      this.fail('complaintRemedies', `a non-empty list of distinct remedies among ${complaintRemedyNames.join(', ')}`);
      return [...defaultComplaintRemedies];
    }
    return [...(value as ComplaintRemedyName[])];
  }

  /** The title's seller (issue 23): every field optional; createCatalogue fills the gaps from the group. */
  seller(name: string): TitleSeller {
    const raw = this.raw['seller'];
    const seller: TitleSeller = { legalName: `${name} AS`, street: '', postalCode: '', town: '', vatRegistered: true };
    if (raw === undefined) return seller;
    if (!isObject(raw)) {
      this.fail('seller', 'an object with legalName, street, postalCode, town and vatRegistered');
      return seller;
    }
    for (const key of Object.keys(raw)) {
      if (!key.startsWith('$') && !sellerKeys.has(key)) this.problems.add(this.where, `unknown field "seller.${key}"`);
    }
    for (const field of ['legalName', 'street', 'town'] as const) {
      const value = raw[field];
      if (value === undefined) continue;
      if (typeof value === 'string' && value.trim() !== '') seller[field] = value;
      else this.problems.add(this.where, `field "seller.${field}" must be a non-empty string, got ${describe(value)}`);
    }
    if (raw['postalCode'] !== undefined) {
      if (typeof raw['postalCode'] === 'string' && postalCodePattern.test(raw['postalCode'])) seller.postalCode = raw['postalCode'];
      else this.problems.add(this.where, `field "seller.postalCode" must be a 4-digit postal code, got ${describe(raw['postalCode'])}`);
    }
    if (raw['vatRegistered'] !== undefined) {
      if (typeof raw['vatRegistered'] === 'boolean') seller.vatRegistered = raw['vatRegistered'];
      else this.problems.add(this.where, `field "seller.vatRegistered" must be true or false, got ${describe(raw['vatRegistered'])}`);
    }
    const addressGiven = [seller.street, seller.postalCode, seller.town].filter((part) => part !== '').length;
    if (addressGiven !== 0 && addressGiven !== 3) this.problems.add(this.where, 'field "seller" must give street, postalCode and town together');
    return seller;
  }

  /** The title's bank setup: required, every field checked, `avtaleGiroAccount` defaulting to the creditor account. */
  bank(): TitleBankSetup {
    const raw = this.raw['bank'];
    const fallback: TitleBankSetup = { creditorAccount: '', ocrAgreementId: '', avtaleGiroAccount: '', kidLength: KID_LENGTH_MIN, kidCheckDigit: 'MOD10' };
    if (!isObject(raw)) {
      this.fail('bank', 'an object with creditorAccount, ocrAgreementId, kidLength and kidCheckDigit');
      return fallback;
    }
    for (const key of Object.keys(raw)) {
      if (!key.startsWith('$') && !bankKeys.has(key)) this.problems.add(this.where, `unknown field "bank.${key}"`);
    }
    const account = (field: string, value: unknown): string => {
      if (typeof value !== 'string' || !isValidBankAccountNumber(value)) {
        this.problems.add(this.where, `field "bank.${field}" must be an 11-digit account number with a valid MOD11 check digit, got ${describe(value)}`);
        return '';
      }
      return value.replace(/[\s.]/g, '');
    };
    const digits = (field: string, count: number): string => {
      const value = raw[field];
      if (typeof value !== 'string' || !new RegExp(`^\\d{${count}}$`).test(value)) {
        this.problems.add(this.where, `field "bank.${field}" must be ${count} digits, got ${describe(value)}`);
        return '';
      }
      return value;
    };
    const creditorAccount = account('creditorAccount', raw['creditorAccount']);
    const kidLength = raw['kidLength'];
    const lengthOk = typeof kidLength === 'number' && Number.isInteger(kidLength) && kidLength >= KID_LENGTH_MIN && kidLength <= KID_LENGTH_MAX;
    if (!lengthOk) this.problems.add(this.where, `field "bank.kidLength" must be a whole number from ${KID_LENGTH_MIN} to ${KID_LENGTH_MAX}, got ${describe(kidLength)}`);
    const kidCheckDigit = kidCheckDigits.find((scheme) => scheme === raw['kidCheckDigit']);
    if (!kidCheckDigit) this.problems.add(this.where, `field "bank.kidCheckDigit" must be one of "MOD10", "MOD11", got ${describe(raw['kidCheckDigit'])}`);
    return {
      creditorAccount,
      ocrAgreementId: digits('ocrAgreementId', 9),
      avtaleGiroAccount: raw['avtaleGiroAccount'] === undefined ? creditorAccount : account('avtaleGiroAccount', raw['avtaleGiroAccount']),
      kidLength: lengthOk ? kidLength : KID_LENGTH_MIN,
      kidCheckDigit: kidCheckDigit ?? 'MOD10',
    };
  }

  unknownFields(): void {
    for (const key of Object.keys(this.raw)) {
      // `$`-prefixed keys ($comment) are annotations for humans.
      if (!key.startsWith('$') && !titleKeys.has(key)) {
        this.problems.add(this.where, `unknown field "${key}"`);
      }
    }
  }
}

/** A group's optional postal address: the seller address its titles print unless they give their own. */
function readGroupAddress(raw: unknown, where: string, problems: Problems): PostalAddress | null {
  if (raw === undefined || raw === null) return null;
  const valid =
    isObject(raw) &&
    Object.keys(raw).every((key) => key.startsWith('$') || addressKeys.has(key)) &&
    typeof raw['street'] === 'string' &&
    raw['street'].trim() !== '' &&
    typeof raw['postalCode'] === 'string' &&
    postalCodePattern.test(raw['postalCode']) &&
    typeof raw['town'] === 'string' &&
    raw['town'].trim() !== '';
  if (!valid) {
    problems.add(where, `field "address" must be { "street", "postalCode" (4 digits), "town" }, got ${describe(raw)}`);
    return null;
  }
  return Object.freeze({ street: raw['street'] as string, postalCode: raw['postalCode'] as string, town: raw['town'] as string });
}

function readGroups(raw: unknown, problems: Problems): Map<TitleGroup, TitleGroupInfo> {
  const groups = new Map<TitleGroup, TitleGroupInfo>();
  if (!Array.isArray(raw)) {
    problems.add('groups', `must be a list of { "code", "name" }, got ${describe(raw)}`);
    return groups;
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const where = `groups[${index}]`;
    if (!isObject(entry)) {
      problems.add(where, `must be an object, got ${describe(entry)}`);
      return;
    }
    const code = titleGroups.find((candidate) => candidate === entry['code']);
    if (!code) {
      problems.add(where, `field "code" must be one of ${titleGroups.join(', ')}, got ${describe(entry['code'])}`);
      return;
    }
    if (seen.has(code)) {
      problems.add(`${where} (${code})`, `duplicate group code "${code}"`);
      return;
    }
    seen.add(code);
    const name = entry['name'];
    if (typeof name !== 'string' || name.trim() === '') {
      problems.add(`${where} (${code})`, `field "name" must be a non-empty string, got ${describe(name)}`);
      return;
    }
    groups.set(code, Object.freeze({ code, name, address: readGroupAddress(entry['address'], `${where} (${code})`, problems) }));
  });
  // Every group must be named: the footer copyright line of each of its titles uses it.
  for (const code of titleGroups) {
    if (!seen.has(code)) problems.add('groups', `missing group "${code}"`);
  }
  return groups;
}

function readTitle(raw: unknown, index: number, problems: Problems): PublicationConfig | undefined {
  if (!isObject(raw)) {
    problems.add(`titles[${index}]`, `must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const code = raw['titleCode'];
  const where = typeof code === 'string' && code !== '' ? `titles[${index}] (${code})` : `titles[${index}]`;
  const read = new EntryReader(raw, where, problems);
  read.unknownFields();

  const publication = read.string('publication', slugPattern, 'a lower-case slug such as "adresseavisen"');
  const baseUrl = read.optionalString('baseUrl', `${publication}.no`, hostPattern, 'a lower-case host name without scheme, such as "adressa.no"');
  if (/^(?:www|minside)\./.test(baseUrl)) {
    problems.add(where, `field "baseUrl" must be the bare title domain (pageUrl and minsideUrl add www. and minside.), got ${describe(baseUrl)}`);
  }
  const play = read.play();
  const newsroom = read.string('newsroom');
  const organizationNumber = read.string('organizationNumber', /^\d{9}$/, 'a 9-digit Norwegian organisation number');
  if (organizationNumber !== '' && !isValidOrganizationNumber(organizationNumber)) {
    problems.add(where, `field "organizationNumber" fails the MOD11 check digit, got ${describe(organizationNumber)}`);
  }

  return {
    newsroom,
    publication,
    name: read.string('name'),
    group: read.oneOf('group', titleGroups),
    titleCode: read.string('titleCode', titleCodePattern, 'an upper-case code such as "ADR"'),
    pulseProvider: read.nullableString('pulseProvider'),
    sourcepointId: read.string('sourcepointId'),
    sourcepointPmId: read.positiveInteger('sourcepointPmId'),
    language: read.oneOf('language', languages, 'nb'),
    streamNewsroom: read.optionalString('streamNewsroom', publication),
    baseUrl,
    pageUrl: `https://www.${baseUrl}`,
    minsideUrl: `https://minside.${baseUrl}`,
    playBaseUrl: play === null ? null : `https://${play}.${baseUrl}`,
    hasNtbLiveLicense: read.optionalBoolean('hasNtbLiveLicense', false),
    hasVgLiveLicense: read.optionalBoolean('hasVgLiveLicense', false),
    excluded: read.optionalBoolean('excluded', false),
    brandColor: read.string('brandColor', colourPattern, 'a #rrggbb colour').toLowerCase(),
    customerCenterPhoneNumber: read.string('customerCenterPhoneNumber', phonePattern, 'a phone number such as "72 50 00 00"'),
    customerCenterEmail: read.string('customerCenterEmail', emailPattern, 'an e-mail address'),
    organizationNumber,
    contactIsPlaceholder: read.optionalBoolean('contactIsPlaceholder', true),
    publicationWeekdays: read.weekdays(),
    pausedIssueCreditOre: read.nonNegativeInteger('pausedIssueCreditOre', 0),
    complaintRemedies: read.remedies(),
    bank: read.bank(),
    vippsMerchantSerialNumber: read.optionalNullableString('vippsMerchantSerialNumber', /^\d{4,6}$/, "the 4–6 digit merchant serial number of the title's own Vipps MobilePay sales unit"),
    seller: read.seller(typeof raw['name'] === 'string' ? raw['name'] : ''),
    ageSelfDeclaration: read.optionalBoolean('ageSelfDeclaration', true),
  };
}

/**
 * Indexes one lookup key, case-insensitively, reporting duplicates. baseUrl is unique too:
 * resolveTitleCode maps a host back to exactly one title.
 */
function indexBy(entries: readonly PublicationConfig[], field: 'titleCode' | 'publication' | 'newsroom' | 'baseUrl', problems: Problems) {
  const map = new Map<string, PublicationConfig>();
  entries.forEach((entry, index) => {
    const key = entry[field].toLowerCase();
    if (key === '') return;
    const existing = map.get(key);
    if (existing) {
      problems.add(`titles[${index}] (${entry.titleCode})`, `duplicate ${field} "${entry[field]}" (already used by ${existing.titleCode})`);
      return;
    }
    map.set(key, entry);
  });
  return map;
}

function freezeEntry(entry: PublicationConfig): PublicationConfig {
  Object.freeze(entry.publicationWeekdays);
  Object.freeze(entry.complaintRemedies);
  Object.freeze(entry.bank);
  Object.freeze(entry.seller);
  return Object.freeze(entry);
}

/**
 * Validates a raw catalogue (the data/titles.json shape, or an operator's TITLES_FILE),
 * applies the defaults and returns the lookups. Throws one Error listing every problem.
 *
 * Excluded entries stay reachable through `all()`, `byTitleCode`, `findByTitleCode`,
 * `byPublication` and `byNewsroom` (existing subscriptions may still name them), but
 * `offered()` and `resolveTitleCode` never return them.
 */
export function createCatalogue(raw: unknown): Catalogue {
  const problems = new Problems();
  if (!isObject(raw)) {
    throw new Error(`Invalid title catalogue: expected an object with "groups" and "titles", got ${describe(raw)}`);
  }
  const groups = readGroups(raw['groups'], problems);

  const rawTitles = raw['titles'];
  const entries: PublicationConfig[] = [];
  if (!Array.isArray(rawTitles) || rawTitles.length === 0) {
    problems.add('titles', `must be a non-empty list of title entries, got ${describe(rawTitles)}`);
  } else {
    rawTitles.forEach((rawTitle: unknown, index) => {
      const entry = readTitle(rawTitle, index, problems);
      if (entry) entries.push(entry);
    });
  }

  const indexes = {
    titleCode: indexBy(entries, 'titleCode', problems),
    publication: indexBy(entries, 'publication', problems),
    newsroom: indexBy(entries, 'newsroom', problems),
    baseUrl: indexBy(entries, 'baseUrl', problems),
  };

  // A bank file names the title only by its agreement id or account: two titles sharing one would get each other's money.
  const bankOwners = new Map<string, string>();
  entries.forEach((entry, index) => {
    const { creditorAccount, avtaleGiroAccount, ocrAgreementId } = entry.bank;
    for (const [field, value] of new Map([
      ['creditorAccount', creditorAccount],
      ['avtaleGiroAccount', avtaleGiroAccount],
      ['ocrAgreementId', ocrAgreementId],
    ])) {
      if (value === '') continue;
      const key = field === 'ocrAgreementId' ? `agreement:${value}` : `account:${value}`;
      const owner = bankOwners.get(key);
      if (owner !== undefined && owner !== entry.titleCode) problems.add(`titles[${index}] (${entry.titleCode})`, `bank.${field} "${value}" is already used by ${owner}`);
      else bankOwners.set(key, entry.titleCode);
    }
  });

  const fallbackEntry = indexes.titleCode.get(FALLBACK_TITLE_CODE.toLowerCase());
  if (entries.length > 0 && !fallbackEntry) {
    problems.add('titles', `must contain the fallback title ${FALLBACK_TITLE_CODE}`);
  } else if (fallbackEntry?.excluded) {
    problems.add('titles', `the fallback title ${FALLBACK_TITLE_CODE} must not be excluded`);
  }

  if (problems.messages.length > 0 || !fallbackEntry) {
    throw new Error(`Invalid title catalogue:\n- ${problems.messages.join('\n- ')}`);
  }

  // A title without its own seller address invoices from its group's.
  for (const entry of entries) {
    const address = groups.get(entry.group)?.address;
    if (entry.seller.street === '' && address) entry.seller = { ...entry.seller, ...address };
  }

  const all = Object.freeze(entries.map(freezeEntry));
  const offered = Object.freeze(all.filter((entry) => !entry.excluded));

  const findByTitleCode = (titleCode: string) => indexes.titleCode.get(titleCode.toLowerCase());

  return {
    all: () => all,
    offered: () => offered,
    byPublication: (publication) => indexes.publication.get(publication.toLowerCase()),
    byNewsroom: (newsroom) => indexes.newsroom.get(newsroom.toLowerCase()),
    findByTitleCode,
    byTitleCode(titleCode) {
      const entry = findByTitleCode(titleCode);
      if (!entry) throw new Error(`No publication config found for titleCode ${titleCode}`);
      return entry;
    },
    group(code) {
      const info = groups.get(code);
      // Unreachable for a validated catalogue and a typed caller; guards JS callers.
      if (!info) throw new Error(`Unknown title group ${code}`);
      return info;
    },
    fallback: () => fallbackEntry,
  };
}

/** The built-in catalogue from data/titles.json. */
export const defaultCatalogue: Catalogue = createCatalogue(data);

/** data/titles.json as written (defaults not applied): what an operator exports and edits when nothing else was imported. */
export const defaultCatalogueDocument: Readonly<Record<string, unknown>> = data;
