/**
 * What an issued invoice or credit note says, frozen when it is issued (issue 23). The PDF and the
 * EHF (PEPPOL BIS Billing 3.0) document are both rendered from this and nothing else, so a later
 * change of address, name, price or catalogue never changes a document already issued
 * (bokføringsforskriften § 5-1-1; bokføringsloven § 13 keeps it five years).
 *
 * Amounts are øre (integers), dates ISO calendar dates (YYYY-MM-DD, Europe/Oslo).
 */

export type BillingDocumentKind = 'INVOICE' | 'CREDIT_NOTE';

/**
 * Newspapers are zero-rated in Norway: printed ones by merverdiavgiftsloven § 6-2, digital news
 * services by § 6-3. The seller is VAT-registered (advertising is not zero-rated), so the
 * documents show 0 % mva with the section that makes it so.
 */
export type ZeroRateBasis = 'PRINTED_NEWSPAPER' | 'ELECTRONIC_NEWS';

/** Why a line is 0 %: printed on the PDF and put in the EHF document's note. */
export const zeroRateReasons: Record<ZeroRateBasis, string> = {
  PRINTED_NEWSPAPER: 'Nullsats for aviser, merverdiavgiftsloven § 6-2',
  ELECTRONIC_NEWS: 'Nullsats for elektroniske nyhetstjenester, merverdiavgiftsloven § 6-3',
};

export interface DocumentSeller {
  /** The title as the reader knows it: "Adresseavisen". */
  titleName: string;
  /** The legal entity that invoices: "Adresseavisen AS". */
  legalName: string;
  /** 9 digits. */
  organizationNumber: string;
  /** Registered in the VAT register: the number is printed "NO 962806112 MVA". */
  vatRegistered: boolean;
  street: string;
  postalCode: string;
  town: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  customerCenterEmail: string;
  customerCenterPhone: string;
  /** https://www.adressa.no */
  pageUrl: string;
  /** "#00539f": the wordmark's colour. */
  brandColor: string;
}

export interface DocumentBuyer {
  /** The subscriber's name, or the company's for a business subscription. */
  name: string;
  /** Aria account number: the customer number printed on every document. */
  customerNumber: number;
  /**
   * The postal address (the delivery address of a paper subscription, or the company's), or null for a
   * digital subscriber with none on file: the e-mail address is then the address the document was
   * sent to.
   */
  postalAddress: { lines: string[]; postalCode: string; town: string; countryCode: string } | null;
  email: string;
  /** A business buyer's 9-digit organisation number (EHF endpoint 0192). */
  organizationNumber: string | null;
  /** The buyer's own reference (a business's "Deres ref."), when given. */
  reference: string | null;
}

export interface DocumentLine {
  /** One rule for every line's text (packages/domain `invoiceLineDescription`). */
  description: string;
  periodFrom: string;
  periodTo: string;
  /** Net amount; negative on nothing (a credit note's lines are positive amounts credited). */
  amountOre: number;
  vatRatePercent: 0;
  zeroRateBasis: ZeroRateBasis;
}

interface DocumentPaymentDetails {
  kid: string;
  /** 11 digits, no separators. */
  accountNumber: string;
}

export interface BillingDocumentContent {
  kind: BillingDocumentKind;
  /** In the one series invoices and credit notes share. */
  number: number;
  issuedOn: string;
  /** Invoices only. */
  dueOn: string | null;
  currency: 'NOK';
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  lines: DocumentLine[];
  totals: { netOre: number; vatOre: 0; totalOre: number };
  /** Invoices only: how to pay it. */
  payment: DocumentPaymentDetails | null;
  /**
   * Credit notes only: the invoice credited, why (`reason`), and what happens to the money
   * (`settlement`: paid back to the card or Vipps, or the invoice need not be paid).
   */
  credits: { invoiceNumber: number; invoiceIssuedOn: string; reason: string; settlement: string } | null;
  /**
   * Invoices only: credit notes set off against it (a complaint credited "på neste faktura"); what is
   * due is the total less these. Absent on documents issued before set-offs existed.
   */
  setOffs?: { creditNoteNumber: number; amountOre: number }[];
}

/** What is due on a document: an invoice's total less the credit notes set off against it; 0 on a credit note. */
export function amountDueOre(content: BillingDocumentContent): number {
  if (content.kind !== 'INVOICE') return 0;
  return content.totals.totalOre - (content.setOffs ?? []).reduce((sum, setOff) => sum + setOff.amountOre, 0);
}
