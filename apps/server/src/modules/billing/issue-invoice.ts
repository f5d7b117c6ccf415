import { eq } from 'drizzle-orm';
import { formatNorwegianAccountNumber, kidFor } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { invoice } from '../../db/schema.ts';
import { issueInvoiceDocument } from './documents/issue.ts';
import { setOffWaitingCredit } from './documents/set-off.ts';

type InvoiceValues = Omit<typeof invoice.$inferInsert, 'ariaInvoiceNo' | 'kid' | 'bankAccountNumber' | 'createdAt'>;

/**
 * Writes one invoice with its KID and the title's creditor account (issue 21), and issues its
 * document (issue 23) in the same transaction: what the invoice says — parties, lines, VAT, how to
 * pay — is frozen as it is at `issuedAt`. The KID holds the invoice number, which the database
 * assigns, so the row is inserted first and given its KID in the same transaction; the KID's length
 * and check digit are the title's agreement with the bank.
 */
export async function insertInvoice(
  tx: Tx,
  catalogue: Catalogue,
  titleCode: string,
  values: InvoiceValues,
  issuedAt: Date,
  /** A renewal invoice: the subscription's credit waiting for "neste faktura" is set off against it. */
  options: { setOffWaitingCredit?: boolean } = {},
): Promise<{ ariaInvoiceNo: number; kid: string; bankAccountNumber: string; setOffOre: number }> {
  const { bank } = catalogue.byTitleCode(titleCode);
  const bankAccountNumber = formatNorwegianAccountNumber(bank.creditorAccount);
  const [created] = await tx
    .insert(invoice)
    .values({ ...values, kid: '0', bankAccountNumber, createdAt: issuedAt })
    .returning({ ariaInvoiceNo: invoice.ariaInvoiceNo });
  if (!created) throw new Error('invoice insert returned nothing');
  const kid = kidFor('invoice', created.ariaInvoiceNo, bank);
  await tx.update(invoice).set({ kid }).where(eq(invoice.ariaInvoiceNo, created.ariaInvoiceNo));
  const setOffOre = options.setOffWaitingCredit && values.subscriptionId ? await setOffWaitingCredit(tx, values.subscriptionId, created.ariaInvoiceNo, values.amountOre, issuedAt) : 0;
  await issueInvoiceDocument(tx, catalogue, created.ariaInvoiceNo, issuedAt);
  return { ariaInvoiceNo: created.ariaInvoiceNo, kid, bankAccountNumber, setOffOre };
}
