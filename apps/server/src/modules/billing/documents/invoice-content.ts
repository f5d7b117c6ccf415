import { eq, sql } from 'drizzle-orm';
import { osloToday } from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Db } from '../../../db/client.ts';
import { account, appUser, creditSetOff, deliveryAddress, einvoiceRecipient, invoice, subscription } from '../../../db/schema.ts';
import type { BillingDocumentContent, DocumentBuyer, DocumentSeller, ZeroRateBasis } from './content.ts';

/**
 * What an invoice's document says, from the rows as they are the moment it is issued: the title as
 * seller, the buyer (the owner, or the company that chose EHF), the line, and any credit set off.
 * One invoice read here (issue.ts), or a whole page of them read by the renewal run (renewal-batch.ts).
 */

export type Reader = Pick<Db, 'select'>;

function sellerOf(title: PublicationConfig): DocumentSeller {
  return {
    titleName: title.name,
    legalName: title.seller.legalName,
    organizationNumber: title.organizationNumber,
    vatRegistered: title.seller.vatRegistered,
    street: title.seller.street,
    postalCode: title.seller.postalCode,
    town: title.seller.town,
    countryCode: 'NO',
    customerCenterEmail: title.customerCenterEmail,
    customerCenterPhone: title.customerCenterPhoneNumber,
    pageUrl: title.pageUrl,
    brandColor: title.brandColor,
  };
}

/** COMBO (paper and digital) is a newspaper subscription (§ 6-2); DIGITAL an electronic news service (§ 6-3). */
function zeroRateBasisOf(planProductType: string | null): ZeroRateBasis {
  return planProductType === 'DIGITAL' ? 'ELECTRONIC_NEWS' : 'PRINTED_NEWSPAPER';
}

/** What a document says of its buyer is read from: the account's owner, a company that chose EHF, the delivery address. */
export interface BuyerSources {
  owner: { email: string; givenName: string; familyName: string } | undefined;
  company: typeof einvoiceRecipient.$inferSelect | undefined;
  address: typeof deliveryAddress.$inferSelect | undefined;
}

async function buyerOf(tx: Reader, ariaAccountNo: number, subscriptionId: string | null): Promise<DocumentBuyer> {
  const [owner] = await tx
    .select({ email: appUser.email, givenName: appUser.givenName, familyName: appUser.familyName })
    .from(account)
    .innerJoin(appUser, eq(appUser.id, account.userId))
    .where(eq(account.ariaAccountNo, ariaAccountNo));
  const [company] = subscriptionId ? await tx.select().from(einvoiceRecipient).where(eq(einvoiceRecipient.subscriptionId, subscriptionId)) : [];
  const [address] = subscriptionId && !company ? await tx.select().from(deliveryAddress).where(eq(deliveryAddress.subscriptionId, subscriptionId)) : [];
  return buyerFrom(ariaAccountNo, { owner, company, address });
}

/** The buyer as the document names it, from what was read for it (buyerOf, or the renewal run's read of a whole batch). */
export function buyerFrom(ariaAccountNo: number, { owner, company, address }: BuyerSources): DocumentBuyer {
  if (company) {
    // A business subscription that chose EHF: the company is the buyer, by its organisation number.
    return {
      name: company.companyName,
      customerNumber: ariaAccountNo,
      postalAddress: { lines: [company.street], postalCode: company.postalCode, town: company.town, countryCode: 'NO' },
      email: owner?.email ?? '',
      organizationNumber: company.organizationNumber,
      reference: company.reference,
    };
  }
  const name = owner ? `${owner.givenName} ${owner.familyName}`.trim() : '';
  const postalAddress =
    address && address.street
      ? {
          lines: [
            ...(address.coName ? [`c/o ${address.coName}`] : []),
            [`${address.street} ${address.streetNumber}`.trim(), address.apartment, address.floor ? `${address.floor}. etasje` : null].filter(Boolean).join(' '),
          ],
          postalCode: address.postalCode,
          town: address.town,
          countryCode: 'NO',
        }
      : null;
  return {
    name: name || (owner?.email ?? ''),
    customerNumber: ariaAccountNo,
    postalAddress,
    // The e-mail address only where it is the address the document went to: a document kept through an
    // erasure (ADR 015/026) keeps no more of the person than § 5-1-1 asks for.
    email: postalAddress ? '' : (owner?.email ?? ''),
    organizationNumber: null,
    reference: null,
  };
}

/** The content of an invoice's document: its row, the title's seller, the buyer as of now. */
export async function invoiceContent(tx: Reader, catalogue: Catalogue, ariaInvoiceNo: number): Promise<{ content: BillingDocumentContent; titleCode: string; ariaAccountNo: number }> {
  const [found] = await tx
    .select({ row: invoice, titleCode: sql<string>`coalesce(${subscription.titleCode}, ${account.firstTitleCode})`, planProductType: subscription.planProductType })
    .from(invoice)
    .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
    .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
    .where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
  if (!found) throw new Error(`invoice ${ariaInvoiceNo} not found`);
  const { row, titleCode } = found;
  const title = catalogue.byTitleCode(titleCode);
  return {
    titleCode: title.titleCode,
    ariaAccountNo: row.ariaAccountNo,
    content: invoiceContentFrom(row, title, found.planProductType, await buyerOf(tx, row.ariaAccountNo, row.subscriptionId), await setOffsOf(tx, ariaInvoiceNo)),
  };
}

/** An invoice's document content from its row and what was read for it (invoiceContent, or the renewal run's batch). */
export function invoiceContentFrom(
  row: typeof invoice.$inferSelect,
  title: PublicationConfig,
  planProductType: string | null,
  buyer: DocumentBuyer,
  setOffs: { creditNoteNumber: number; amountOre: number }[],
): BillingDocumentContent {
  return {
    kind: 'INVOICE',
    number: row.ariaInvoiceNo,
    issuedOn: osloToday(row.createdAt),
    dueOn: row.dueOn,
    currency: 'NOK',
    seller: sellerOf(title),
    buyer,
    lines: [{ description: row.description, periodFrom: row.periodFrom, periodTo: row.periodTo, amountOre: row.amountOre, vatRatePercent: 0, zeroRateBasis: zeroRateBasisOf(planProductType) }],
    totals: { netOre: row.amountOre, vatOre: 0, totalOre: row.amountOre },
    payment: { kid: row.kid, accountNumber: row.bankAccountNumber.replace(/\D/g, '') },
    credits: null,
    setOffs,
  };
}

/** The credit notes set off against an invoice, for its document ("Fratrukket kreditnota …"). */
async function setOffsOf(reader: Reader, ariaInvoiceNo: number): Promise<{ creditNoteNumber: number; amountOre: number }[]> {
  const rows = await reader
    .select({ creditNoteNumber: creditSetOff.creditNoteNumber, amountOre: sql<number>`sum(${creditSetOff.amountOre})::int` })
    .from(creditSetOff)
    .where(eq(creditSetOff.ariaInvoiceNo, ariaInvoiceNo))
    .groupBy(creditSetOff.creditNoteNumber)
    .orderBy(creditSetOff.creditNoteNumber);
  return rows.map((row) => ({ creditNoteNumber: row.creditNoteNumber, amountOre: Number(row.amountOre) }));
}
