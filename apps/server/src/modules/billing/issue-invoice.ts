import { eq } from 'drizzle-orm';
import { invoiceKid } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { invoice } from '../../db/schema.ts';

/** The publisher's bank account every invoice is paid to. */
export const BANK_ACCOUNT = '1503.12.34567';

type InvoiceValues = Omit<typeof invoice.$inferInsert, 'ariaInvoiceNo' | 'kid' | 'bankAccountNumber'>;

/**
 * Writes one invoice with its KID. The KID is made from the invoice number, which the database
 * assigns, so the row is inserted first and given its KID in the same transaction.
 */
export async function insertInvoice(tx: Tx, values: InvoiceValues): Promise<{ ariaInvoiceNo: number; kid: string }> {
  const [created] = await tx.insert(invoice).values({ ...values, kid: '0', bankAccountNumber: BANK_ACCOUNT }).returning({ ariaInvoiceNo: invoice.ariaInvoiceNo });
  if (!created) throw new Error('invoice insert returned nothing');
  const kid = invoiceKid(values.ariaAccountNo, created.ariaInvoiceNo);
  await tx.update(invoice).set({ kid }).where(eq(invoice.ariaInvoiceNo, created.ariaInvoiceNo));
  return { ariaInvoiceNo: created.ariaInvoiceNo, kid };
}
