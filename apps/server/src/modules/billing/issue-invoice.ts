import { eq } from 'drizzle-orm';
import { formatNorwegianAccountNumber, kidFor } from '@minside/domain';
import type { TitleBankSetup } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { invoice } from '../../db/schema.ts';

type InvoiceValues = Omit<typeof invoice.$inferInsert, 'ariaInvoiceNo' | 'kid' | 'bankAccountNumber'>;

/**
 * Writes one invoice with its KID and the title's creditor account (issue 21). The KID holds the
 * invoice number, which the database assigns, so the row is inserted first and given its KID in the
 * same transaction; the KID's length and check digit are the title's agreement with the bank.
 */
export async function insertInvoice(tx: Tx, bank: TitleBankSetup, values: InvoiceValues): Promise<{ ariaInvoiceNo: number; kid: string; bankAccountNumber: string }> {
  const bankAccountNumber = formatNorwegianAccountNumber(bank.creditorAccount);
  const [created] = await tx.insert(invoice).values({ ...values, kid: '0', bankAccountNumber }).returning({ ariaInvoiceNo: invoice.ariaInvoiceNo });
  if (!created) throw new Error('invoice insert returned nothing');
  const kid = kidFor('invoice', created.ariaInvoiceNo, bank);
  await tx.update(invoice).set({ kid }).where(eq(invoice.ariaInvoiceNo, created.ariaInvoiceNo));
  return { ariaInvoiceNo: created.ariaInvoiceNo, kid, bankAccountNumber };
}
