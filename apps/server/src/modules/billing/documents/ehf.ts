import { amountDueOre, zeroRateReasons, type BillingDocumentContent, type DocumentLine, type ZeroRateBasis } from './content.ts';
import { buyerParty, sellerParty } from './ehf-parties.ts';
import { amount, date, group, optionalValue, serialize, value, type XmlElement } from './ehf-xml.ts';

export { oreToAmount } from './ehf-xml.ts';

/**
 * An invoice or credit note as EHF (issue 23): a UBL 2.1 `Invoice` or `CreditNote` by PEPPOL BIS
 * Billing 3.0, the format Norwegian businesses receive invoices in. Rendered from the frozen
 * content and nothing else, like the PDF; the same content always gives the same string.
 *
 * The rule ids in the comments are those of the published rule sets (EN 16931 `BR-*`, PEPPOL
 * `PEPPOL-EN16931-*`, Norway `NO-R-*`); ehf.test.ts checks each one that applies to us.
 *
 * VAT. Newspapers are zero-rated in Norway (merverdiavgiftsloven § 6-2 printed, § 6-3 digital
 * news): the supply is taxable at 0 %, which is EN 16931 category Z "Zero rated goods" with rate 0
 * (BR-Z-05), not E "Exempt" (that is mval. kapittel 3, "unntatt", where no VAT applies at all).
 * BR-Z-10 forbids a VAT exemption reason (text or code) in a Z breakdown, so the legal basis goes in
 * the one invoice note BIS allows (PEPPOL-EN16931-R002: at most one `cbc:Note`). A seller that is
 * not in the VAT register cannot zero-rate anything: its documents use category O "Not subject to
 * VAT" with no rate and an exemption reason (BR-O-05, BR-O-10) and no seller VAT identifier (BR-O-02).
 *
 * Content that would make an EHF the receiver's access point rejects (no buyer organisation number,
 * a broken check digit, totals that do not add up) throws: an EHF is sent or not, never half right.
 */

const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** UNCL 1001: 380 commercial invoice, 381 credit note. */
const INVOICE_TYPE_CODE = '380';
const CREDIT_NOTE_TYPE_CODE = '381';
/** UNCL 4461: 30 credit transfer (a Norwegian giro payment to an account with a KID). */
const CREDIT_TRANSFER = '30';
/** UN/ECE Recommendation 20: C62 "one". A subscription line is one period of one product. */
const UNIT_ONE = 'C62';

const namespaces = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const zeroRateOrder: ZeroRateBasis[] = ['PRINTED_NEWSPAPER', 'ELECTRONIC_NEWS'];

/** Category O's reason: CEF VATEX code and text (BR-O-10; PEPPOL-EN16931-P0105 ties the code to O). */
const NOT_SUBJECT_TO_VAT = { code: 'VATEX-EU-O', text: 'Ikke merverdiavgiftspliktig: selger er ikke registrert i Merverdiavgiftsregisteret' };

// The document itself: its header, VAT, lines and totals. The XML and the value formats it is
// written with are ehf-xml.ts; the seller and the buyer, ehf-parties.ts.

type VatCategory = 'Z' | 'O';

function taxCategory(name: 'cac:ClassifiedTaxCategory' | 'cac:TaxCategory', category: VatCategory, inBreakdown: boolean): XmlElement {
  return group(name, [
    value('cbc:ID', category),
    // BR-Z-05 / BR-48: rate 0 for Z; BR-O-05: no rate for O.
    category === 'Z' ? value('cbc:Percent', '0') : null,
    // BR-Z-10: a Z breakdown has no exemption reason; BR-O-10: an O breakdown must have one.
    category === 'O' && inBreakdown ? value('cbc:TaxExemptionReasonCode', NOT_SUBJECT_TO_VAT.code) : null,
    category === 'O' && inBreakdown ? value('cbc:TaxExemptionReason', NOT_SUBJECT_TO_VAT.text) : null,
    group('cac:TaxScheme', [value('cbc:ID', 'VAT')]),
  ]);
}

/** "Oppsagt før periodestart" → "Oppsagt før periodestart."; blank → nothing. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The one document-level note (PEPPOL-EN16931-R002): for a credit note the invoice it credits, why,
 * and what happens to the money; for zero-rated supplies the section of the VAT act that makes them
 * so (the place BR-Z-10 leaves for it).
 */
function documentNote(content: BillingDocumentContent, category: VatCategory): string | null {
  const parts: string[] = [];
  if (content.kind === 'CREDIT_NOTE' && content.credits) {
    parts.push(`Kreditnota for faktura ${content.credits.invoiceNumber}.`, sentence(content.credits.reason), sentence(content.credits.settlement));
  }
  if (category === 'Z') {
    const bases = new Set(content.lines.map((line) => line.zeroRateBasis));
    parts.push(...zeroRateOrder.filter((basis) => bases.has(basis)).map((basis) => `${zeroRateReasons[basis]}.`));
  }
  const note = parts.filter((part) => part !== '').join(' ');
  return note === '' ? null : note;
}

function documentLine(content: BillingDocumentContent, line: DocumentLine, index: number, category: VatCategory): XmlElement {
  const isInvoice = content.kind === 'INVOICE';
  // BR-27: the net price is never negative, and a credit note credits positive amounts.
  if (line.amountOre < 0) throw new Error(`EHF: line ${index + 1} of document ${content.number} has a negative amount`);
  // BR-29: a period ends on or after its start (ISO dates compare as strings).
  if (line.periodTo < line.periodFrom) throw new Error(`EHF: line ${index + 1} of document ${content.number} ends before it starts`);
  return group(isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine', [
    value('cbc:ID', String(index + 1)),
    // BR-22, BR-23; PEPPOL-EN16931-R120: quantity × price = line amount.
    value(isInvoice ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', '1', { unitCode: UNIT_ONE }),
    amount('cbc:LineExtensionAmount', line.amountOre, content.currency),
    group('cac:InvoicePeriod', [date('cbc:StartDate', line.periodFrom), date('cbc:EndDate', line.periodTo)]),
    // BR-25: the item name is the line's text, whatever its length (EN 16931 sets none).
    group('cac:Item', [value('cbc:Name', line.description), taxCategory('cac:ClassifiedTaxCategory', category, false)]),
    group('cac:Price', [amount('cbc:PriceAmount', line.amountOre, content.currency)]),
  ]);
}

/** The content as a PEPPOL BIS Billing 3.0 UBL document, ready to hand to an access point. */
export function renderEhf(content: BillingDocumentContent): string {
  const isInvoice = content.kind === 'INVOICE';
  const currency = content.currency;
  // BR-16.
  if (content.lines.length === 0) throw new Error(`EHF: document ${content.number} has no lines`);
  const category: VatCategory = content.seller.vatRegistered ? 'Z' : 'O';

  // BR-CO-10, BR-CO-13, BR-CO-15, BR-CO-16 hold by construction; the frozen totals must agree.
  const lineTotalOre = content.lines.reduce((sum, line) => sum + line.amountOre, 0);
  const vatOre = 0;
  if (lineTotalOre !== content.totals.netOre || content.totals.netOre + vatOre !== content.totals.totalOre) {
    throw new Error(`EHF: document ${content.number}'s totals (net ${content.totals.netOre}, total ${content.totals.totalOre} øre) do not match its lines (${lineTotalOre} øre)`);
  }
  const prepaidOre = isInvoice ? content.totals.totalOre - amountDueOre(content) : 0;
  // BR-CO-25: an amount due needs a due date.
  if (isInvoice && lineTotalOre > 0 && content.dueOn === null) throw new Error(`EHF: invoice ${content.number} has an amount due but no due date`);
  if (!isInvoice && content.credits === null) throw new Error(`EHF: credit note ${content.number} does not name the invoice it credits`);

  const rootName = isInvoice ? 'Invoice' : 'CreditNote';
  const root = group(
    rootName,
    [
      value('cbc:CustomizationID', CUSTOMIZATION_ID),
      value('cbc:ProfileID', PROFILE_ID),
      value('cbc:ID', String(content.number)),
      date('cbc:IssueDate', content.issuedOn),
      // UBL 2.1 has no DueDate on a CreditNote; nothing is due on ours.
      isInvoice && content.dueOn !== null ? date('cbc:DueDate', content.dueOn) : null,
      value(isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', isInvoice ? INVOICE_TYPE_CODE : CREDIT_NOTE_TYPE_CODE),
      optionalValue('cbc:Note', documentNote(content, category)),
      value('cbc:DocumentCurrencyCode', currency),
      // BT-10, PEPPOL-EN16931-R003: the buyer's own reference, else the customer number.
      value('cbc:BuyerReference', content.buyer.reference?.trim() || String(content.buyer.customerNumber)),
      // BG-3: the invoice a credit note credits.
      !isInvoice && content.credits
        ? group('cac:BillingReference', [group('cac:InvoiceDocumentReference', [value('cbc:ID', String(content.credits.invoiceNumber)), date('cbc:IssueDate', content.credits.invoiceIssuedOn)])])
        : null,
      sellerParty(content),
      buyerParty(content),
      // BG-16/BG-17: pay by credit transfer to this account with this KID (BR-49, BR-50, BR-61).
      // A Norwegian BBAN (11 digits) is what BIS takes for a Norwegian account.
      isInvoice && content.payment
        ? group('cac:PaymentMeans', [
            value('cbc:PaymentMeansCode', CREDIT_TRANSFER),
            value('cbc:PaymentID', content.payment.kid),
            group('cac:PayeeFinancialAccount', [value('cbc:ID', content.payment.accountNumber)]),
          ])
        : null,
      // PEPPOL-EN16931-R053: one TaxTotal with its breakdown; all our lines share one category (BR-Z-01, BR-O-01).
      group('cac:TaxTotal', [
        amount('cbc:TaxAmount', vatOre, currency),
        group('cac:TaxSubtotal', [amount('cbc:TaxableAmount', lineTotalOre, currency), amount('cbc:TaxAmount', vatOre, currency), taxCategory('cac:TaxCategory', category, true)]),
      ]),
      group('cac:LegalMonetaryTotal', [
        amount('cbc:LineExtensionAmount', lineTotalOre, currency),
        amount('cbc:TaxExclusiveAmount', lineTotalOre, currency),
        amount('cbc:TaxInclusiveAmount', lineTotalOre + vatOre, currency),
        // BT-113: credit notes set off against the invoice, paid already as far as the buyer is concerned (BR-CO-16).
        prepaidOre > 0 ? amount('cbc:PrepaidAmount', prepaidOre, currency) : null,
        amount('cbc:PayableAmount', lineTotalOre + vatOre - prepaidOre, currency),
      ]),
      ...content.lines.map((line, index) => documentLine(content, line, index, category)),
    ],
    { xmlns: namespaces[rootName], 'xmlns:cac': namespaces.cac, 'xmlns:cbc': namespaces.cbc },
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root, 0)}`;
}
