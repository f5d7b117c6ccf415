/** SPEC §1: the publishing groups a title belongs to. */
export const titleGroups = ['aag', 'por', 'nvl', 'htg', 'pmve', 'pmo', 'pox'] as const;
export type TitleGroup = (typeof titleGroups)[number];

export type TitleLanguage = 'nb' | 'nn';

/**
 * One catalogue entry with every default applied (SPEC §1). Raw entries in
 * data/titles.json may omit the defaulted fields; `createCatalogue` fills them in.
 */
export interface PublicationConfig {
  newsroom: string;
  /** Slug, e.g. "adresseavisen". Also the `{publication}.localhost` dev host. */
  publication: string;
  name: string;
  group: TitleGroup;
  /** Upper case, e.g. "ADR". Looked up case-insensitively. */
  titleCode: string;
  /** null for titles without pulse tracking (AN, VA). */
  pulseProvider: string | null;
  /** Consent vendor (Sourcepoint) id string. */
  sourcepointId: string;
  sourcepointPmId: number;
  language: TitleLanguage;
  /** Defaults to `publication`. */
  streamNewsroom: string;
  /** Host without scheme, e.g. "adressa.no". Defaults to `{publication}.no`. */
  baseUrl: string;
  /** https://www.{baseUrl} */
  pageUrl: string;
  /** https://minside.{baseUrl} */
  minsideUrl: string;
  /** pageUrl with the www part replaced by the play subdomain (tv by default, some play); null when the title has none. */
  playBaseUrl: string | null;
  hasNtbLiveLicense: boolean;
  hasVgLiveLicense: boolean;
  /** Excluded codes (XX, VI, RUI, KOF, KUL) are in the catalogue but never offered. */
  excluded: boolean;
  /** CSS colour (#rrggbb) used for the wordmark and the brand tokens. */
  brandColor: string;
  customerCenterPhoneNumber: string;
  customerCenterEmail: string;
  organizationNumber: string;
  /** True when the contact details above are illustrative placeholders, not the publisher's. */
  contactIsPlaceholder: boolean;
  /** ISO weekdays (1 = Monday … 7 = Sunday) the paper is printed. Default Monday–Saturday. */
  publicationWeekdays: number[];
  /** Øre credited per issue a vacation stop skips; 0 (default) = not credited. */
  pausedIssueCreditOre: number;
  /** What a delivery complaint can get (default EXTENSION); REDELIVERY only for today's paper. */
  complaintRemedies: ComplaintRemedyName[];
  /** How the title is paid through the bank (Nets OCR Giro and AvtaleGiro), as agreed with it. */
  bank: TitleBankSetup;
  /**
   * The title's own Vipps MobilePay sales unit (merchant serial number), where it has one; null: the
   * group's, VIPPS_MERCHANT_SERIAL_NUMBER. Titles may share one.
   */
  vippsMerchantSerialNumber: string | null;
  /** Who invoices the title's subscriptions (issue 23): printed on every invoice and credit note. */
  seller: TitleSeller;
  /**
   * Whether a buyer without a verified birthdate may declare it for an offer with an age limit
   * (Ung, Honnør; issue 24). False: they confirm it with an issuer that verifies it ("Bekreft
   * alderen med Vipps"). Default true.
   */
  ageSelfDeclaration: boolean;
}

/**
 * The legal seller of a title's subscriptions. Defaults: legal name "{name} AS", the group's address,
 * VAT-registered (newspapers are zero-rated, but their publishers sell advertising with VAT).
 * `street` is '' when neither the title nor its group gives an address.
 */
export interface TitleSeller {
  legalName: string;
  street: string;
  postalCode: string;
  town: string;
  vatRegistered: boolean;
}

/** A postal address in Norway. */
export interface PostalAddress {
  street: string;
  /** 4 digits. */
  postalCode: string;
  town: string;
}

/** The check digit the bank validates KIDs with: MOD10 (Luhn) or MOD11 (weights 2–7, `-` when 10). */
export type KidCheckDigit = 'MOD10' | 'MOD11';

/**
 * A title's money setup with the bank (issue 21). Every invoice prints `creditorAccount` and a KID of
 * exactly `kidLength` digits; OCR Giro files arrive per `ocrAgreementId`; AvtaleGiro claims are drawn
 * to `avtaleGiroAccount` (the publisher sends them as one customer unit: BANK_CUSTOMER_UNIT_ID).
 */
export interface TitleBankSetup {
  /** 11 digits, MOD11-valid: the account invoices are paid to. Shown as xxxx.xx.xxxxx. */
  creditorAccount: string;
  /** 9 digits: the OCR Giro agreement id Nets puts in the assignment start of the title's payments. */
  ocrAgreementId: string;
  /** 11 digits, MOD11-valid: the account AvtaleGiro claims are drawn to. Defaults to `creditorAccount`. */
  avtaleGiroAccount: string;
  /** Digits in every KID of the title, the check digit included (10–25). */
  kidLength: number;
  kidCheckDigit: KidCheckDigit;
}

export type ComplaintRemedyName = 'REDELIVERY' | 'EXTENSION' | 'CREDIT';

export interface TitleGroupInfo {
  code: TitleGroup;
  /** Used in the footer copyright line: "© 2026 {name}". */
  name: string;
  /** The group's postal address: the default seller address of its titles; null when not given. */
  address: PostalAddress | null;
}

export interface Catalogue {
  /** Every entry, excluded ones included, in data order. */
  all(): readonly PublicationConfig[];
  /** Entries that may be offered and resolved (not excluded). */
  offered(): readonly PublicationConfig[];
  byPublication(publication: string): PublicationConfig | undefined;
  byNewsroom(newsroom: string): PublicationConfig | undefined;
  /**
   * Case-insensitive. Throws `No publication config found for titleCode {code}` when unknown.
   * Like the other lookups it also finds excluded entries; only `offered()` and
   * `resolveTitleCode` leave them out.
   */
  byTitleCode(titleCode: string): PublicationConfig;
  /** Case-insensitive; undefined when unknown. */
  findByTitleCode(titleCode: string): PublicationConfig | undefined;
  group(code: TitleGroup): TitleGroupInfo;
  /** The fallback title (POL). */
  fallback(): PublicationConfig;
}
