import { eq, inArray, sql } from 'drizzle-orm';
import { effectiveStatusCode, instStatusName, osloToday } from '@minside/domain';
import { account, appUser, invoice } from '../db/schema.ts';
import { liveClaimColumn, toInvoiceDto } from '../modules/billing/index.ts';
import { collectUserData } from '../modules/privacy/index.ts';
import { AdminInputError, type AdminContext } from './args.ts';

/** The user an operator means by an e-mail address (any case) or an account number. */
export async function findSubscriber(context: AdminContext, who: string): Promise<string> {
  const { db } = context;
  if (/^\d+$/.test(who)) {
    const [row] = await db
      .select({ userId: account.userId })
      .from(account)
      .where(eq(account.ariaAccountNo, Number(who)));
    if (!row) throw new AdminInputError(`No account with number ${who}.`);
    return row.userId;
  }
  if (who.includes('@')) {
    const users = await db
      .select({ id: appUser.id })
      .from(appUser)
      .where(eq(sql`lower(${appUser.email})`, who.trim().toLowerCase()));
    if (users.length === 0) throw new AdminInputError(`No subscriber with e-mail ${who}.`);
    if (users.length > 1) throw new AdminInputError(`${users.length} users have e-mail ${who}: look them up by account number instead.`);
    return users[0]!.id;
  }
  throw new AdminInputError(`Give an e-mail address or an account number, not "${who}".`);
}

/** The part of a subscriber's record the customer centre looks at, read-only. */
export async function subscriberHistory(context: AdminContext, who: string) {
  const { db } = context;
  const userId = await findSubscriber(context, who);
  const data = await collectUserData(db, userId, context.config.identityProviderName, context.config.oidcKey);
  const today = osloToday(context.now());
  const titleOf = new Map(data.subscriptions.map((row) => [row.id, row.titleCode]));
  const firstTitle = data.accounts[0]?.firstTitleCode ?? '';
  // An AvtaleGiro claim at the bank is not part of the subscriber's own record, but the customer centre must see it (never "pay it now" while the bank draws it).
  const invoiceNos = data.invoices.map((row) => row.ariaInvoiceNo);
  const claimRows = invoiceNos.length
    ? await db
        .select({ no: invoice.ariaInvoiceNo, claim: liveClaimColumn(today) })
        .from(invoice)
        .where(inArray(invoice.ariaInvoiceNo, invoiceNos))
    : [];
  const claims = new Map(claimRows.map((row) => [row.no, row]));
  const paidOf = new Map<number, number>();
  for (const row of data.payments) {
    if (row.status === 'CAPTURED' && row.ariaInvoiceNo !== null) paidOf.set(row.ariaInvoiceNo, (paidOf.get(row.ariaInvoiceNo) ?? 0) + row.amountOre);
  }
  const creditedOf = new Map<number, number>();
  for (const row of data.creditSetOffs) {
    if (row.ariaInvoiceNo !== null) creditedOf.set(row.ariaInvoiceNo, (creditedOf.get(row.ariaInvoiceNo) ?? 0) + row.amountOre);
  }
  return {
    subscriber: { email: data.profile.email, name: `${data.profile.givenName} ${data.profile.familyName}`.trim(), accounts: data.accounts.map((row) => row.ariaAccountNo) },
    subscriptions: data.subscriptions.map((row) => {
      const code = effectiveStatusCode(row, today);
      return { ...row, status: instStatusName(code) ?? `code ${code}` };
    }),
    changeLog: data.changeLog,
    deliveryChanges: data.deliveryChanges,
    complaints: data.complaints,
    invoices: data.invoices.map((row) =>
      toInvoiceDto(
        { ...row, paidAt: row.paidAt ? new Date(row.paidAt) : null, createdAt: new Date(row.createdAt ?? 0) },
        (row.subscriptionId && titleOf.get(row.subscriptionId)) || firstTitle,
        today,
        // The operator's history prints the status, not how it is collected: no mandate or draw look-ups here.
        {
          paidOre: paidOf.get(row.ariaInvoiceNo) ?? 0,
          creditedOre: creditedOf.get(row.ariaInvoiceNo) ?? 0,
          claim: claims.get(row.ariaInvoiceNo)?.claim ?? null,
          drawFailed: false,
          onActiveMandate: false,
        },
      ),
    ),
    // Complaint credits handed over when a subscription was withdrawn (ADR 036): the customer centre pays them back through the bank.
    creditsToPayBack: data.creditSetOffs
      .filter((row) => row.handedOverAt !== null)
      .map((row) => ({ creditNoteNumber: row.creditNoteNumber, amountOre: row.amountOre, handedOverAt: row.handedOverAt })),
  };
}

export type SubscriberHistory = Awaited<ReturnType<typeof subscriberHistory>>;
