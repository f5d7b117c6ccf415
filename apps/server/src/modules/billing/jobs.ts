import { titleMail } from '../../integrations/mail/templates.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, ne, not, sql, type SQL } from 'drizzle-orm';
import { addDays, addMonths, formatKroner, formatShortDate, instStatusCodes, invoiceLineDescription, osloToday, paymentProviderLabels, renewsAtPeriodEnd, type BilledPeriod, type BillingPeriod, type ChangeDetails, type ChangeKind, type RenewableSubscription } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, billingDocument, discountCode, invoice, invoiceCredit, payment, paymentAgreement, plan, subscription, subscriptionChange, subscriptionDiscount, subscriptionPeriod } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { PaymentProvider } from '../../integrations/payment/provider.ts';
import type { PaymentEngine } from './engine.ts';
import { insertInvoice } from './issue-invoice.ts';
import { qualified } from '../../db/qualified.ts';
import { enqueuePaymentReceipt, enqueueRefundNotice } from './documents/receipts.ts';
import { CLAIM_MIN_LEAD_DAYS, fixedAvtaleGiroDraw } from './claim-window.ts';
import { creditedOreColumn, paidSoFar } from './paid-so-far.ts';
import type { BillingService } from './service.ts';
import { endingStatusCodes, type CancelledPeriodCrediting } from './cancelled-periods.ts';

/**
 * The billing jobs (issue 11 schedules them; `npm run billing:jobs` runs them by hand):
 * - renewals: issue the next period's invoice RENEWAL_LEAD_DAYS before the period ends
 *   (one per period: `subscription_period`'s primary key), roll the period over when it
 *   ends (a trial's 1 kr month converting to ACTIVE in the same step), and collect due invoices — charge a stored card / Vipps agreement, leave giro
 *   invoices waiting (their e-mail carries a pay-link); AvtaleGiro invoices go to the bank in
 *   the claim file and are paid only when its OCR file says so (modules/bank, issue 21); first,
 *   the invoices of periods a cancelled subscription will not have are credited (cancelled-periods.ts);
 * - reconciliation: settle PENDING payments at the provider.
 * Every step is safe to run twice or on two instances at once.
 */

export const RENEWAL_LEAD_DAYS = 14;
/** Giro invoices are due this many days before the period starts (as the demo invoices are). */
const DUE_DAYS_BEFORE_PERIOD = 2;
/**
 * Dunning of a failed card / Vipps renewal charge: attempt 1 on the due date, attempt 2 at least
 * 3 days after it, attempt 3 at least 4 days after that; then the invoice waits like a giro (the
 * owner has had a pay-link since the first failure).
 */
const RENEWAL_RETRY_DAYS = [3, 4] as const;
/** The receiving account printed on invoices the portal creates (illustrative, as the seed's). */

const periodMonths: Record<BillingPeriod, number> = { YEAR: 12, QUARTER: 3, MONTH: 1, MONTH_PREMIUM: 1 };

export interface BillingJobDeps {
  db: Db;
  engine: PaymentEngine;
  billing: BillingService;
  provider: PaymentProvider;
  mailer: Mailer;
  catalogue: Catalogue;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The portal origin of a title, for links in e-mails. */
  portalOrigin: (titleCode: string) => string;
  /** Credits the invoices of periods after a cancelled subscription's access ends (ADR 026). */
  cancelledPeriods: CancelledPeriodCrediting;
}

export interface RenewalReport {
  /** Invoices of periods after a cancelled subscription's access ends, credited by this run. */
  invoicesCredited: number;
  invoicesIssued: number;
  periodsRolled: number;
  charged: number;
}

/** What the renewal rule (`renewsAtPeriodEnd`) reads of a stored subscription. */
function renewable(row: typeof subscription.$inferSelect): RenewableSubscription {
  return {
    ariaPlanID: row.ariaPlanId,
    planProductType: row.planProductType,
    eligibleForSharing: row.eligibleForSharing,
    instStatusCode: row.instStatusCode,
    subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: row.subscriptionInfo1 },
    priceOre: row.priceOre,
    sharedFrom: row.sharedFromSubscriptionId,
  };
}

/** A period's invoice as `issueIn` made it: for the owner's subscription as it was read under its lock. */
interface IssuedPeriod {
  row: typeof subscription.$inferSelect;
  ariaInvoiceNo: number;
  /** What is left to pay after a waiting credit was set off against it (0: a 100 % discount, or a credit covering it). */
  openOre: number;
  periodTo: string;
  dueOn: string;
}

export function createBillingJobs(deps: BillingJobDeps) {
  const { db, engine, billing, provider, mailer, catalogue, now, log, portalOrigin, cancelledPeriods } = deps;

  async function priceFor(executor: Db | Tx, row: typeof subscription.$inferSelect, periodFrom: string): Promise<{ amountOre: number; planName: string; months: number; billingPeriod: string }> {
    const planId = row.pendingPlanId && row.pendingChangeOn && row.pendingChangeOn <= periodFrom ? row.pendingPlanId : row.ariaPlanId;
    const [found] = await executor.select().from(plan).where(eq(plan.ariaPlanId, planId));
    if (!found) return { amountOre: row.priceOre, planName: row.planName, months: periodMonths[row.billingPeriod as BillingPeriod] ?? 1, billingPeriod: row.billingPeriod };
    const announced = found.nextPriceOre !== null && found.nextPriceFrom !== null && found.nextPriceFrom <= periodFrom;
    const amountOre = planId === row.ariaPlanId && !announced ? row.priceOre : announced ? (found.nextPriceOre as number) : found.priceOre;
    return { amountOre, planName: found.name, months: periodMonths[found.billingPeriod as BillingPeriod] ?? 1, billingPeriod: found.billingPeriod };
  }

  /** The subscription's ACTIVE stored agreement for its method that this provider can charge (a card, a Vipps agreement), if any. */
  async function chargeableAgreement(executor: Db | Tx, subscriptionId: string, method: string) {
    const [agreement] = await executor
      .select()
      .from(paymentAgreement)
      // Only an agreement this provider made: another provider's card or agreement id means nothing to it.
      .where(and(eq(paymentAgreement.subscriptionId, subscriptionId), eq(paymentAgreement.status, 'ACTIVE'), eq(paymentAgreement.method, method === 'CARD' ? 'SWEDBANK-PPG' : method), eq(paymentAgreement.provider, provider.name)));
    return agreement;
  }

  /**
   * The invoice e-mail (KID, account, a pay-link) to the owner, once per invoice, whenever the
   * payer has to act or should know: giro and AvtaleGiro always; a card or Vipps subscription
   * when nothing stored can be charged (an order paid by a card the provider keeps no copy of,
   * an agreement stopped in the Vipps app). A charged invoice needs no e-mail: it is paid.
   */
  async function mailInvoiceToPay(tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number): Promise<void> {
    const title = catalogue.findByTitleCode(row.titleCode);
    const [found] = await tx.select({ issued: invoice, setOffOre: creditedOreColumn }).from(invoice).where(eq(invoice.ariaInvoiceNo, invoiceNo));
    const issued = found?.issued;
    if (!title || !found || !issued || issued.paidAt || issued.amountOre <= 0) return;
    const setOffOre = Number(found.setOffOre);
    let howToPay: string;
    if (row.paymentMethod === 'INVOICE') howToPay = 'Betal enkelt med Vipps eller kort, uten å logge inn.';
    else if (row.paymentMethod === 'AVTALEGIRO') {
      // AvtaleGiro draws only on a mandate the bank has confirmed; until then the invoice is the payer's to pay.
      const [mandate] = await tx.select({ id: paymentAgreement.id }).from(paymentAgreement).where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE')));
      howToPay = mandate
        ? 'Beløpet trekkes med AvtaleGiro på forfallsdatoen. Vil du heller betale nå, kan du gjøre det her.'
        : // Not the netbank: a giro payment reaches us days later, maybe after the bank has drawn the invoice too.
          'AvtaleGiro-avtalen din venter på bekreftelse fra banken. Blir den bekreftet i tide, trekker banken beløpet på forfallsdatoen. Vil du heller betale nå, kan du betale med Vipps eller kort her, så stopper vi trekket.';
    } else if (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') {
      if (await chargeableAgreement(tx, row.id, row.paymentMethod)) return;
      howToPay =
        row.paymentMethod === 'VIPPS'
          ? 'Du har ingen aktiv Vipps-avtale vi kan trekke denne fakturaen fra. Betal den i nettbanken med KID og kontonummer, eller med Vipps eller kort her, uten å logge inn.'
          : 'Vi har ikke et betalingskort vi kan trekke denne fakturaen fra. Betal den i nettbanken med KID og kontonummer, eller med Vipps eller kort her, uten å logge inn.';
    } else return;
    const [owner] = await tx.select({ email: appUser.email, givenName: appUser.givenName }).from(account).innerJoin(appUser, eq(appUser.id, account.userId)).where(eq(account.ariaAccountNo, row.ariaAccountNo));
    if (!owner) return;
    const link = billing.paylinkPath(invoiceNo);
    await mailer.enqueue(tx, {
      to: owner.email,
      title,
      kind: 'invoiceIssued',
      idempotencyKey: `invoice-issued:${invoiceNo}`,
      ...titleMail(title, {
        subject: `${title.name}: ny faktura ${invoiceNo}`,
        heading: `Faktura ${invoiceNo}`,
        paragraphs: [
          `Hei ${owner.givenName}!`,
          `Her er fakturaen for ${issued.description}.`,
          ...(setOffOre > 0 ? [`Fakturaen er på ${formatKroner(issued.amountOre, { withOre: true })}. Vi har trukket fra ${formatKroner(setOffOre, { withOre: true })} som du har til gode fra en kreditnota.`] : []),
          `${setOffOre > 0 ? 'Å betale' : 'Beløp'}: ${formatKroner(issued.amountOre - setOffOre, { withOre: true })}. Forfallsdato: ${formatShortDate(issued.dueOn)}. KID: ${issued.kid}. Kontonummer: ${issued.bankAccountNumber}.`,
          howToPay,
        ],
        action: { label: 'Betal fakturaen', url: `${portalOrigin(row.titleCode)}${link.path}` },
      }),
    });
  }

  /**
   * Issues the invoice for the period starting at `periodFrom`, once, in the caller's transaction:
   * the one place a period's invoice is made — the renewal run's, and a reactivation's first period
   * (ADR 006). Null when the subscription does not renew (`renewsAtPeriodEnd`: cancelled, ended, a
   * share, no price) or the period has its invoice already.
   */
  async function issueIn(tx: Tx, subscriptionId: string, periodFrom: string, today: string): Promise<IssuedPeriod | null> {
    // Read under the row lock a cancellation takes: one that committed since the run read its candidates
    // (and credited the period's invoice, letting go of its claim) gets no new one.
    const [row] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId)).for('share');
    if (!row || !renewsAtPeriodEnd(renewable(row))) return null;
    const title = catalogue.findByTitleCode(row.titleCode);
    if (!title) {
      log.error({ subscriptionId, titleCode: row.titleCode }, 'no catalogue entry for the title: no invoice issued');
      return null;
    }
    const price = await priceFor(tx, row, periodFrom);
    const periodTo = addDays(addMonths(periodFrom, price.months), -1);
    const [claimed] = await tx
      .insert(subscriptionPeriod)
      .values({ subscriptionId, periodFrom, ariaInvoiceNo: null, createdAt: now() })
      .onConflictDoNothing()
      .returning();
    if (!claimed) return null;
    // An invoice for this period made elsewhere (seed, an order) counts as the renewal — unless a
    // credit note took all of it back (a cancellation since undone): the period is billed again.
    const [existing] = await tx
      .select({ no: invoice.ariaInvoiceNo })
      .from(invoice)
      .where(
        and(
          eq(invoice.subscriptionId, subscriptionId),
          eq(invoice.periodFrom, periodFrom),
          sql`not exists (select 1 from ${billingDocument} d where d.aria_invoice_no = ${qualified(invoice.ariaInvoiceNo)} and d.kind = 'CREDIT_NOTE' and (d.source like 'cancel:%' or d.source like 'refund:%'))`,
        ),
      );
    if (existing) {
      await tx.update(subscriptionPeriod).set({ ariaInvoiceNo: existing.no }).where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));
      return null;
    }
    let amountOre = price.amountOre;
    let discountNote: string | null = null;
    const [discount] = await tx
      .select({ applied: subscriptionDiscount, code: discountCode })
      .from(subscriptionDiscount)
      .innerJoin(discountCode, eq(discountCode.code, subscriptionDiscount.code))
      .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), gt(subscriptionDiscount.remainingPeriods, 0)))
      .for('update', { of: subscriptionDiscount });
    if (discount) {
      const off = discount.code.percentOff !== null ? Math.round((amountOre * discount.code.percentOff) / 100) : (discount.code.amountOffOre ?? 0);
      amountOre = Math.max(0, amountOre - off);
      discountNote = `rabatt ${discount.code.code}`;
      await tx
        .update(subscriptionDiscount)
        .set({ remainingPeriods: sql`${subscriptionDiscount.remainingPeriods} - 1` })
        .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), eq(subscriptionDiscount.code, discount.applied.code)));
    }
    // Due before the period starts, or today if that is past. AvtaleGiro: not before the next claim
    // file can carry it (tomorrow's, when today's has gone), or the bank would never draw it.
    const earliest = row.paymentMethod === 'AVTALEGIRO' ? addDays(today, CLAIM_MIN_LEAD_DAYS + 1) : today;
    const dueOn = [addDays(periodFrom, -DUE_DAYS_BEFORE_PERIOD), earliest].sort().at(-1) as string;
    const { ariaInvoiceNo: invoiceNo, setOffOre } = await insertInvoice(tx, catalogue, title.titleCode, {
      ariaAccountNo: row.ariaAccountNo,
      subscriptionId,
      amountOre,
      description: invoiceLineDescription({ planName: price.planName, periodFrom, periodTo, note: discountNote }),
      periodFrom,
      periodTo,
      dueOn,
      // Nothing to pay (a 100 % discount) is settled at once.
      ...(amountOre === 0 ? { paidAt: now(), settledBy: 'CREDIT' } : {}),
    }, now(), { setOffWaitingCredit: amountOre > 0 });
    if (discount && amountOre < price.amountOre) {
      // The discount as a credit line on the invoice: what the list price was and why less is due.
      await tx.insert(invoiceCredit).values({ id: randomUUID(), ariaInvoiceNo: invoiceNo, amountOre: price.amountOre - amountOre, reason: `Rabatt ${discount.code.code}`, createdAt: now() });
    }
    await tx.update(subscriptionPeriod).set({ ariaInvoiceNo: invoiceNo }).where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));

    if (amountOre > 0) await mailInvoiceToPay(tx, row, invoiceNo);
    return { row, ariaInvoiceNo: invoiceNo, openOre: amountOre - setOffOre, periodTo, dueOn };
  }

  /** The renewal run's: the period's invoice in a transaction of its own. Returns its number, or null if none was issued. */
  async function issueFor(subscriptionId: string, periodFrom: string, today: string): Promise<number | null> {
    return (await db.transaction((tx) => issueIn(tx, subscriptionId, periodFrom, today)))?.ariaInvoiceNo ?? null;
  }

  /**
   * How an issued invoice gets paid, as the subscriber is told: the stored card or Vipps agreement
   * `collect` charges, the bank's AvtaleGiro draw on a confirmed mandate (the claim run's own
   * condition), or the payer from the invoice e-mail; nothing when a discount or a credit covers it.
   */
  async function paymentOf(tx: Tx, issued: IssuedPeriod): Promise<BilledPeriod['payment']> {
    const { row } = issued;
    if (issued.openOre <= 0) return 'settled';
    if (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') {
      const agreement = await chargeableAgreement(tx, row.id, row.paymentMethod);
      if (agreement?.providerAgreementId) return row.paymentMethod === 'CARD' ? 'card' : 'vipps';
    } else if (row.paymentMethod === 'AVTALEGIRO') {
      const [mandate] = await tx
        .select({ id: paymentAgreement.id })
        .from(paymentAgreement)
        .where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE'), isNotNull(paymentAgreement.providerAgreementId)));
      if (mandate) return 'avtalegiro';
    }
    return 'invoice';
  }

  /**
   * Claims the next renewal charge of a due invoice, under the invoice's row lock: nothing while
   * the invoice is paid, while any payment of it is PENDING (the owner paying by hand right now,
   * or an earlier charge whose answer is still unknown), after a capture, after the last attempt,
   * or before the dunning schedule allows the next one. Each attempt has its own key.
   */
  async function claimRenewalCharge(row: typeof invoice.$inferSelect, method: string, today: string): Promise<{ id: string; key: string; amountOre: number } | null> {
    return db.transaction(async (tx) => {
      const [locked] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, row.ariaInvoiceNo)).for('update');
      if (!locked || locked.paidAt) return null;
      if ((await engine.openForInvoice(tx, row.ariaInvoiceNo)).length > 0) return null;
      // Claimed at the bank with AvtaleGiro before the method changed, and too late to withdraw: the bank draws it.
      if (await fixedAvtaleGiroDraw(tx, row.ariaInvoiceNo, today)) return null;
      const openOre = locked.amountOre - (await paidSoFar(tx, row.ariaInvoiceNo));
      if (openOre <= 0) return null;
      const attempts = await tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, row.ariaInvoiceNo), eq(payment.purpose, 'RENEWAL'), ne(payment.method, 'AVTALEGIRO')))
        .orderBy(desc(payment.createdAt));
      if (attempts.some((attempt) => attempt.status === 'CAPTURED')) return null;
      const last = attempts[0];
      if (last) {
        const wait = RENEWAL_RETRY_DAYS[attempts.length - 1];
        if (wait === undefined || addDays(osloToday(last.createdAt), wait) > today) return null;
      }
      const key = `renewal:${row.ariaInvoiceNo}:${attempts.length + 1}`;
      const at = now();
      const id = randomUUID();
      const [claimed] = await tx
        .insert(payment)
        .values({
          id,
          idempotencyKey: key,
          purpose: 'RENEWAL',
          method,
          amountOre: openOre,
          status: 'PENDING',
          userId: null,
          ariaAccountNo: locked.ariaAccountNo,
          subscriptionId: locked.subscriptionId,
          ariaInvoiceNo: locked.ariaInvoiceNo,
          provider: provider.name,
          returnUrl: '/fakturaoversikt',
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: payment.idempotencyKey })
        .returning({ id: payment.id });
      return claimed ? { id, key, amountOre: openOre } : null;
    });
  }

  async function collect(today: string): Promise<{ charged: number }> {
    const due = await db
      .select({ invoice, method: subscription.paymentMethod, subscription })
      .from(invoice)
      .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      // AvtaleGiro is not collected here: the bank draws on the claim file's due date and its OCR file is the only proof (modules/bank).
      // A provider that draws on a date of its own (Vipps MobilePay) is given the charge its lead time before the due date.
      .where(
        and(
          isNull(invoice.paidAt),
          lte(invoice.dueOn, addDays(today, provider.chargeLeadDays ?? 0)),
          gt(invoice.amountOre, 0),
          inArray(subscription.paymentMethod, ['CARD', 'VIPPS']),
          // Never a period the subscription will not have: its invoice is credited (cancelled-periods.ts), and
          // one the crediting could not finish yet is not charged meanwhile.
          not(and(inArray(subscription.instStatusCode, [...endingStatusCodes]), gte(invoice.periodFrom, subscription.currentPeriodEnd)) as SQL),
        ),
      );
    let charged = 0;
    for (const { invoice: row, method, subscription: owner } of due) {
      const subscriptionId = row.subscriptionId as string;
      // The charge of a card or Vipps subscription is made its lead time before the due date; a card at once, on the due date.
      if (method !== 'VIPPS' && row.dueOn > today) continue;
      const agreement = await chargeableAgreement(db, subscriptionId, method);
      if (!agreement?.providerAgreementId) {
        // Nothing this provider can charge (a card from an earlier provider): the invoice waits like a giro, with its e-mail (once).
        if (row.dueOn <= today) await db.transaction((tx) => mailInvoiceToPay(tx, owner, row.ariaInvoiceNo)).catch((error: unknown) => log.error({ err: error, ariaInvoiceNo: row.ariaInvoiceNo }, 'could not mail an invoice nothing can charge'));
        continue;
      }
      try {
        // The row and its key first: a second run (or instance) finds it and does not charge again.
        const claim = await claimRenewalCharge(row, agreement.method, today);
        if (!claim) continue;
        // A Vipps agreement can be stopped in the app without our hearing of it (a lost webhook): asked
        // before each charge, a stopped one moves the subscription to giro and mails the invoice, and the claim is let go.
        if (agreement.method === 'VIPPS' && !(await engine.agreementChanged(agreement.providerAgreementId))) {
          await engine.giveUp(claim.id, 'AGREEMENT_ENDED');
          continue;
        }
        let result;
        try {
          result = await provider.chargeAgreement({
            agreementId: agreement.providerAgreementId,
            amountOre: claim.amountOre,
            idempotencyKey: claim.key,
            merchantReference: claim.id,
            description: `Faktura ${row.ariaInvoiceNo}`,
            dueOn: row.dueOn,
          });
        } catch (error) {
          // No answer is not "failed": the provider may have charged. The row stays PENDING and
          // reconciliation asks the provider by our reference; no new attempt starts meanwhile.
          log.warn({ err: error, ariaInvoiceNo: row.ariaInvoiceNo, paymentId: claim.id }, 'renewal charge got no answer; reconciliation will ask the provider');
          continue;
        }
        // The provider's reference is stored with the result, in the settling transaction.
        const settled = await engine.apply(claim.id, result);
        if (settled?.status === 'CAPTURED') charged += 1;
      } catch (error) {
        log.error({ err: error, ariaInvoiceNo: row.ariaInvoiceNo }, 'collecting a due invoice failed');
      }
    }
    return { charged };
  }

  /**
   * A Vipps agreement stopped in the Vipps app (or expired at the provider): the subscription goes
   * back to giro — its invoices come with KID and a pay-link — and the owner is told, once.
   */
  engine.onAgreementEnded(async (tx, ended) => {
    if (ended.method !== 'VIPPS') return;
    const [moved] = await tx
      .update(subscription)
      .set({ paymentMethod: 'INVOICE' })
      .where(and(eq(subscription.id, ended.subscriptionId), eq(subscription.paymentMethod, 'VIPPS')))
      .returning({ ariaAccountNo: subscription.ariaAccountNo, planName: subscription.planName, titleCode: subscription.titleCode });
    if (!moved) return;
    await engine.logMethodChange(tx, ended.subscriptionId, null, paymentProviderLabels.BANKGIRO);
    // Its open invoices are the owner's to pay now: each gets its e-mail with KID and pay-link (once).
    const [onGiro] = await tx.select().from(subscription).where(eq(subscription.id, ended.subscriptionId));
    const open = await tx.select({ no: invoice.ariaInvoiceNo }).from(invoice).where(and(eq(invoice.subscriptionId, ended.subscriptionId), isNull(invoice.paidAt), gt(invoice.amountOre, 0)));
    if (onGiro) for (const { no } of open) await mailInvoiceToPay(tx, onGiro, no);
    const title = catalogue.findByTitleCode(moved.titleCode);
    const [owner] = await tx.select({ email: appUser.email, givenName: appUser.givenName }).from(account).innerJoin(appUser, eq(appUser.id, account.userId)).where(eq(account.ariaAccountNo, moved.ariaAccountNo));
    if (!title || !owner) return;
    await mailer.enqueue(tx, {
      to: owner.email,
      title,
      kind: 'vippsAgreementStopped',
      idempotencyKey: `vipps-agreement-ended:${ended.id}`,
      ...titleMail(title, {
        subject: `${title.name}: Vipps-avtalen er stoppet`,
        heading: 'Vipps-avtalen er stoppet',
        paragraphs: [
          `Hei ${owner.givenName}!`,
          `Vipps-avtalen for ${moved.planName} er stoppet i Vipps. Fakturaene kommer derfor som vanlig giro fra nå av: du betaler dem i nettbanken med KID og kontonummer, eller med Vipps eller kort fra lenken i e-posten.`,
          'Vil du betale fast med Vipps igjen, kan du velge det på Min side.',
        ],
        action: { label: 'Velg betalingsmåte', url: `${portalOrigin(moved.titleCode)}/endre-betalingsmetode` },
      }),
    });
  });

  /**
   * A renewal charge the provider refused (expired card, stopped agreement): the owner is told at
   * once, with a pay-link, in the settling transaction. One e-mail per invoice; the job retries.
   */
  // Every payment captured on an invoice — on Min Side, by a pay-link, or a renewal charge — gets its receipt.
  const documentMail = { mailer, catalogue, portalOrigin };
  for (const purpose of ['INVOICE', 'RENEWAL'] as const) {
    engine.onSettled(purpose, async (tx, settled) => {
      if (settled.status === 'CAPTURED') await enqueuePaymentReceipt(tx, documentMail, settled.id);
    });
  }
  // Money given back that no credit note tells of (a second payment, an order not fulfilled): the payer hears of it.
  engine.onRefunded((tx, refunded) => enqueueRefundNotice(tx, documentMail, refunded));
  engine.onSettled('RENEWAL', async (tx, settled) => {
    // Refused by the provider (no money behind the card, the charge ran out of retries). A charge that
    // was cancelled — its agreement stopped, the invoice paid another way — is no failed payment, and
    // promising to "try again in a few days" would be untrue.
    if ((settled.status !== 'FAILED' && settled.status !== 'TIMEOUT') || settled.ariaInvoiceNo === null || settled.subscriptionId === null) return;
    const [found] = await tx
      .select({ invoice, titleCode: subscription.titleCode, email: appUser.email, givenName: appUser.givenName })
      .from(invoice)
      .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(invoice.ariaInvoiceNo, settled.ariaInvoiceNo));
    const title = found ? catalogue.findByTitleCode(found.titleCode) : undefined;
    if (!found || !title || found.invoice.paidAt) return;
    const no = found.invoice.ariaInvoiceNo;
    const link = billing.paylinkPath(no);
    const source = settled.method === 'VIPPS' ? 'Vipps-avtalen' : 'betalingskortet';
    await mailer.enqueue(tx, {
      to: found.email,
      title,
      kind: 'paymentFailed',
      idempotencyKey: `renewal-failed:${no}`,
      ...titleMail(title, {
        subject: `${title.name}: betalingen av faktura ${no} gikk ikke gjennom`,
        heading: `Faktura ${no} er ikke betalt`,
        paragraphs: [
          `Hei ${found.givenName}!`,
          `Vi fikk ikke trukket ${formatKroner(settled.amountOre, { withOre: true })} for faktura ${no} (${found.invoice.description}) fra ${source}.`,
          'Vi prøver igjen om noen dager. Du kan også betale fakturaen nå med Vipps eller kort, uten å logge inn, eller bytte betalingsmåte på Min side.',
          `Forfallsdato: ${formatShortDate(found.invoice.dueOn)}. KID: ${found.invoice.kid}. Kontonummer: ${found.invoice.bankAccountNumber}.`,
        ],
        action: { label: 'Betal fakturaen', url: `${portalOrigin(found.titleCode)}${link.path}` },
      }),
    });
  });

  return {
    /**
     * Bills the period of the subscription starting `periodFrom` now, in the caller's transaction —
     * a reactivation's first period (ADR 006) — exactly as the renewal run bills every other one; the
     * run then finds the period claimed and bills it no second time. Money moves later, by `collect`
     * (card, Vipps), the claim file (AvtaleGiro) or the payer (the invoice e-mail). Null when the
     * subscription does not renew or the period has its invoice already.
     */
    async billPeriod(tx: Tx, subscriptionId: string, periodFrom: string): Promise<BilledPeriod | null> {
      const issued = await issueIn(tx, subscriptionId, periodFrom, osloToday(now()));
      if (!issued) return null;
      return { ariaInvoiceNo: issued.ariaInvoiceNo, amountOre: issued.openOre, periodFrom, periodTo: issued.periodTo, dueOn: issued.dueOn, payment: await paymentOf(tx, issued) };
    },

    async runRenewals(): Promise<RenewalReport> {
      const today = osloToday(now());
      const report: RenewalReport = { invoicesCredited: 0, invoicesIssued: 0, periodsRolled: 0, charged: 0 };
      // First what cancellations left open (a provider that did not answer, a crash after the commit): before anything is charged.
      report.invoicesCredited = (await cancelledPeriods.sweep().catch((error: unknown) => {
        log.error({ err: error }, 'crediting the invoices of cancelled periods failed; tried again on the next run');
        return { credited: 0 };
      })).credited;
      const candidates = await db
        .select()
        .from(subscription)
        // The rows renewsAtPeriodEnd may take: ACTIVE, and TRIAL (the 1 kr month converts when it ends).
        .where(and(inArray(subscription.instStatusCode, [instStatusCodes.ACTIVE, instStatusCodes.TRIAL]), isNull(subscription.sharedFromSubscriptionId), gt(subscription.priceOre, 0), lte(subscription.currentPeriodEnd, addDays(today, RENEWAL_LEAD_DAYS))));
      for (const candidate of candidates) {
        if (!renewsAtPeriodEnd(renewable(candidate))) continue;
        try {
          let row = candidate;
          if (row.instStatusCode === instStatusCodes.TRIAL && row.currentPeriodEnd < today) {
            // A trial whose end passed unbilled (before trials converted at all, or while no run came)
            // converts from today: the subscriber is never billed back for the months in between.
            const moved = await db
              .update(subscription)
              .set({ currentPeriodEnd: today })
              .where(and(eq(subscription.id, row.id), eq(subscription.currentPeriodEnd, row.currentPeriodEnd), eq(subscription.instStatusCode, instStatusCodes.TRIAL)))
              .returning({ id: subscription.id });
            if (moved.length === 0) continue;
            row = { ...row, currentPeriodEnd: today };
          }
          if ((await issueFor(row.id, row.currentPeriodEnd, today)) !== null) report.invoicesIssued += 1;
          if (row.currentPeriodEnd <= today) {
            // The period has begun: it becomes the current one (compare-and-set: once, whoever runs).
            // A trial becomes ACTIVE in the same update: the period it begins is the first at the
            // regular price. The status read is part of the condition, so a trial cancelled since
            // (PENDING_CANCELLATION) is neither rolled nor converted.
            const price = await priceFor(db, row, row.currentPeriodEnd);
            const endsTrial = row.instStatusCode === instStatusCodes.TRIAL;
            const rolled = await db.transaction(async (tx) => {
              const updated = await tx
                .update(subscription)
                .set({ currentPeriodEnd: addMonths(row.currentPeriodEnd, price.months), instStatusCode: instStatusCodes.ACTIVE })
                .where(and(eq(subscription.id, row.id), eq(subscription.currentPeriodEnd, row.currentPeriodEnd), eq(subscription.instStatusCode, row.instStatusCode)))
                .returning({ id: subscription.id });
              if (updated.length > 0 && endsTrial) {
                const details: ChangeDetails = { planName: price.planName, billingPeriod: price.billingPeriod, amountOre: price.amountOre, on: row.currentPeriodEnd };
                await tx.insert(subscriptionChange).values({
                  id: randomUUID(),
                  subscriptionId: row.id,
                  at: now(),
                  actor: 'system',
                  actorUserId: null,
                  kind: 'trialEnded' satisfies ChangeKind,
                  fromStatusCode: instStatusCodes.TRIAL,
                  toStatusCode: instStatusCodes.ACTIVE,
                  details,
                });
              }
              return updated;
            });
            if (rolled.length > 0) {
              report.periodsRolled += 1;
              const next = addMonths(row.currentPeriodEnd, price.months);
              if (next <= addDays(today, RENEWAL_LEAD_DAYS) && (await issueFor(row.id, next, today)) !== null) report.invoicesIssued += 1;
            }
          }
        } catch (error) {
          log.error({ err: error, subscriptionId: candidate.id }, 'renewal of a subscription failed');
        }
      }
      const collected = await collect(today);
      report.charged = collected.charged;
      return report;
    },

    async runReconciliation(): Promise<{ examined: number; settled: number }> {
      // The provider's own upkeep first (Vipps MobilePay: its webhook registration, if start-up could not make it); look-ups go on without it.
      await provider.maintain?.().catch((error: unknown) => log.error({ err: error }, 'payment provider upkeep failed; tried again on the next reconciliation'));
      return engine.reconcile();
    },
  };
}

export type BillingJobs = ReturnType<typeof createBillingJobs>;
