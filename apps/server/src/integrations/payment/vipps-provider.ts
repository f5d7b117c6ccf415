import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { addDays, osloToday } from '@minside/domain';
import {
  EPAYMENT_EVENT_TYPES,
  EpaymentWebhookEvent,
  RECURRING_AGREEMENT_EVENT_TYPES,
  RECURRING_CHARGE_EVENT_TYPES,
  RecurringAgreementWebhookEvent,
  RecurringChargeWebhookEvent,
  VippsApiError,
  verifyWebhookRequest,
  type AgreementStatus,
  type Amount,
  type ChargeStatus,
  type GetPaymentResponse,
  type ModificationResponse,
  type VippsClient,
} from '@minside/vipps';
import type { Db } from '../../db/client.ts';
import { billingSecret, payment, paymentAgreement, vippsMerchantReference } from '../../db/schema.ts';
import {
  CallbackSignatureError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  type AgreementTerms,
  type CallbackEvent,
  type PaymentProvider,
  type ProviderStatus,
  type ProviderTransaction,
} from './provider.ts';

/**
 * Vipps MobilePay behind the PaymentProvider seam (issue 22, ADR 025): the ePayment API for "Betal
 * med Vipps" (WALLET) and card payments (CARD, the card form at Vipps MobilePay), its webhooks
 * signed with the secret of our registration, and look-ups as the truth. It talks to whatever
 * VIPPS_BASE_URL names — the provider, its test environment or the simulator — the same way.
 *
 * Recurring: choosing Vipps for a running subscription makes an agreement (the plan's price as
 * the suggested maximum of a VARIABLE price, its period, its name), and buying one with Vipps
 * makes it with the order as its first charge; each renewal invoice is a charge on it, due the
 * provider's lead time ahead, with our payment id as its id. All are settled from look-ups (the
 * Recurring webhook payloads are not in the published documents). Vipps MobilePay keeps no card
 * for us: a card pays once.
 */

export const VIPPS_PROVIDER_NAME = 'vipps';
export const VIPPS_CALLBACK_PATH = '/api/payment/callback/vipps';

/**
 * How old a signed callback may be. A callback only makes the engine look the payment up, so a
 * replay moves nothing; the provider retries a failed delivery for days, and whether it signs each
 * retry anew is not in its documents: a correctly signed late one is still taken.
 */
const CALLBACK_MAX_AGE_MS = 8 * 24 * 60 * 60 * 1000;

/** What we are told of: every ePayment event, and agreements and charges of Recurring. */
const WEBHOOK_EVENTS = [...EPAYMENT_EVENT_TYPES, ...RECURRING_AGREEMENT_EVENT_TYPES, ...RECURRING_CHARGE_EVENT_TYPES];

/** The billing_secret row that keeps our webhook registration (id and secret) per merchant. */
const registrationName = (msn: string) => `vipps_webhook:${msn}`;

interface Registration {
  id: string;
  url: string;
  secret: string;
}

export interface VippsProviderOptions {
  client: VippsClient;
  db: Db;
  now: () => Date;
  /** The group's sales unit (VIPPS_MERCHANT_SERIAL_NUMBER): every title without its own. */
  merchantSerialNumber: string;
  /** Titles with their own sales unit (the catalogue's `vippsMerchantSerialNumber`), by title code. */
  titleMerchants?: ReadonlyMap<string, string>;
  /** Where Vipps MobilePay sends the webhooks: PUBLIC_URL + VIPPS_CALLBACK_PATH. */
  callbackUrl: string;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
}

export type VippsProvider = PaymentProvider & {
  /** Registers our webhook with the Webhooks API once per sales unit (or finds the registration we made before). */
  registerWebhook(): Promise<void>;
};

const nok = (ore: number): Amount => ({ currency: 'NOK', value: ore });

/**
 * Idempotency keys as Vipps MobilePay takes them — at most 50 characters for ePayment; 40, and
 * none of `# ? / \`, for Recurring: a key that does not fit is hashed, the same each time.
 */
function fitKey(key: string, api: 'epayment' | 'recurring' = 'epayment'): string {
  const max = api === 'recurring' ? 40 : 50;
  if (key.length <= max && !(api === 'recurring' && /[#?/\\]/.test(key))) return key;
  return `h-${createHash('sha256')
    .update(key)
    .digest('base64url')
    .slice(0, max - 2)}`;
}

/**
 * The payment's state in the engine's words. A captured payment stays AUTHORIZED at Vipps
 * MobilePay; what happened to the money is in the aggregate.
 */
function statusOf(payment: Pick<GetPaymentResponse, 'state' | 'aggregate' | 'amount'>): ProviderStatus {
  const { capturedAmount, refundedAmount, cancelledAmount } = payment.aggregate;
  switch (payment.state) {
    case 'CREATED':
      return 'CREATED';
    case 'ABORTED':
    case 'TERMINATED':
      return 'CANCELLED';
    case 'EXPIRED':
      return 'TIMEOUT';
    case 'AUTHORIZED':
      if (capturedAmount.value > 0 && refundedAmount.value >= capturedAmount.value) return 'REFUNDED';
      // Paid is all of it: a part captured by hand in the merchant portal is not the invoice paid.
      if (capturedAmount.value >= payment.amount.value) return 'CAPTURED';
      return cancelledAmount.value > 0 && capturedAmount.value === 0 ? 'CANCELLED' : 'AUTHORIZED';
  }
}

const transactionOf = (payment: GetPaymentResponse | ModificationResponse): ProviderTransaction => ({
  providerReference: payment.reference,
  status: statusOf(payment),
  agreementId: null,
});

/** An agreement's reference is its id (`agr_…`); a charge's is `charge:<agreementId>:<chargeId>`. */
const chargeReference = (agreementId: string, chargeId: string) => `charge:${agreementId}:${chargeId}`;
function parseChargeReference(reference: string): { agreementId: string; chargeId: string } | null {
  const match = /^charge:([^:]+):(.+)$/.exec(reference);
  return match ? { agreementId: match[1] as string, chargeId: match[2] as string } : null;
}
const isAgreementReference = (reference: string) => reference.startsWith('agr_');

const agreementStatuses: Record<AgreementStatus, ProviderStatus> = { PENDING: 'CREATED', ACTIVE: 'AUTHORIZED', STOPPED: 'CANCELLED', EXPIRED: 'TIMEOUT' };
/**
 * A charge is paid when CHARGED, refunded when all of it went back. Until then it is AUTHORIZED in
 * the engine's words — the payer agreed, the provider draws on the due date — never CREATED, which
 * the engine gives up (cancels) after an hour: a charge waits days for its due date.
 */
const chargeStatuses: Record<ChargeStatus, ProviderStatus> = {
  PENDING: 'AUTHORIZED',
  DUE: 'AUTHORIZED',
  PROCESSING: 'AUTHORIZED',
  RESERVED: 'AUTHORIZED',
  CHARGED: 'CAPTURED',
  PARTIALLY_CAPTURED: 'CAPTURED',
  PARTIALLY_REFUNDED: 'CAPTURED',
  REFUNDED: 'REFUNDED',
  FAILED: 'FAILED',
  CANCELLED: 'CANCELLED',
};

/** An agreement for a plan: what the payer sees in the Vipps app, and where the portal manages it (the embedded simulator restores agreements with it too). */
export function agreementDraft(terms: AgreementTerms, portalOrigin: string, returnUrl: string, externalId: string) {
  return {
    // VARIABLE: each renewal invoice is charged at its own amount (a discount, a new price), up to the maximum the payer accepts.
    pricing: { type: 'VARIABLE' as const, suggestedMaxAmount: Math.min(2_000_000, Math.max(100, terms.priceOre * 2)), currency: 'NOK' as const },
    interval: terms.intervalMonths % 12 === 0 ? { unit: 'YEAR' as const, count: terms.intervalMonths / 12 } : { unit: 'MONTH' as const, count: terms.intervalMonths },
    merchantRedirectUrl: `${portalOrigin}${returnUrl}`,
    merchantAgreementUrl: `${portalOrigin}${terms.agreementPath}`,
    productName: terms.productName.slice(0, 45),
    externalId,
  };
}

/**
 * The provider said no to this request (nothing left to refund, too late to cancel): its current
 * state is the answer. Not 409 (the same key is still being worked on) or 429 (a rate limit): the
 * outcome is not known yet, so the caller tries again later.
 */
const refused = (error: unknown) => error instanceof VippsApiError && error.status >= 400 && error.status < 500 && error.status !== 409 && error.status !== 429;

/** Days ahead a charge is due: Vipps MobilePay takes charges at least this far ahead (2 in production, 1 in its test environment). */
export const CHARGE_LEAD_DAYS = 2;

export function createVippsProvider({ client, db, now, merchantSerialNumber, titleMerchants = new Map(), callbackUrl, log }: VippsProviderOptions): VippsProvider {
  /** Every sales unit we take payments for: each has its own webhook registration and secret. */
  const merchants = [...new Set([merchantSerialNumber, ...titleMerchants.values()])];
  const registrations = new Map<string, Registration>();
  /** Which sales unit a reference belongs to, once asked (a reference never moves). */
  const knownMerchants = new Map<string, string>();

  const merchantOfTitle = (titleCode: string) => titleMerchants.get(titleCode) ?? merchantSerialNumber;

  /** Remembers the sales unit of a title's own payment or agreement (the group's is the default, not written). */
  async function remember(reference: string, msn: string): Promise<void> {
    knownMerchants.set(reference, msn);
    if (msn === merchantSerialNumber) return;
    await db.insert(vippsMerchantReference).values({ reference, merchantSerialNumber: msn }).onConflictDoNothing();
  }

  /** The sales unit a payment, agreement or charge (by its agreement) was made with. */
  async function merchantOf(reference: string): Promise<string> {
    const key = parseChargeReference(reference)?.agreementId ?? reference;
    const known = knownMerchants.get(key);
    if (known) return known;
    const [row] = merchants.length === 1 ? [] : await db.select({ msn: vippsMerchantReference.merchantSerialNumber }).from(vippsMerchantReference).where(eq(vippsMerchantReference.reference, key));
    const msn = row?.msn ?? merchantSerialNumber;
    if (knownMerchants.size > 10_000) knownMerchants.clear();
    knownMerchants.set(key, msn);
    return msn;
  }

  async function storedRegistration(msn: string, executor: Db = db): Promise<Registration | undefined> {
    const [row] = await executor
      .select({ value: billingSecret.value })
      .from(billingSecret)
      .where(eq(billingSecret.name, registrationName(msn)));
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as Registration;
    } catch {
      return undefined;
    }
  }

  async function agreementTransaction(agreementId: string): Promise<ProviderTransaction> {
    const agreement = await client.recurring.getAgreement(agreementId, { msn: await merchantOf(agreementId) });
    return { providerReference: agreementId, status: agreementStatuses[agreement.status], agreementId: agreement.status === 'ACTIVE' ? agreementId : null };
  }

  async function chargeTransaction(agreementId: string, chargeId: string): Promise<ProviderTransaction> {
    const msn = await merchantOf(agreementId);
    const charge = await client.recurring.getCharge(agreementId, chargeId, { msn });
    const providerReference = chargeReference(agreementId, chargeId);
    let status = chargeStatuses[charge.status];
    // Only an order's first charge hangs on its agreement; a renewal charge is what Vipps says of the charge itself.
    if (charge.type === 'INITIAL' && (status === 'AUTHORIZED' || status === 'CANCELLED')) {
      // A charge is only as agreed as its agreement: an order's first charge waits while the payer
      // has not answered (PENDING: not yet approved, given up after an hour like any checkout), and
      // ends with an agreement the payer declined (STOPPED) or never answered (EXPIRED).
      const agreement = await client.recurring.getAgreement(agreementId, { msn });
      if (agreement.status === 'PENDING') status = 'CREATED';
      else if (agreement.status === 'EXPIRED' && status === 'CANCELLED') status = 'TIMEOUT';
      else if (agreement.status !== 'ACTIVE' && status === 'AUTHORIZED') status = 'CANCELLED';
    }
    return { providerReference, status, agreementId };
  }

  async function lookup(providerReference: string): Promise<ProviderTransaction> {
    try {
      const charge = parseChargeReference(providerReference);
      if (charge) return await chargeTransaction(charge.agreementId, charge.chargeId);
      if (isAgreementReference(providerReference)) return await agreementTransaction(providerReference);
      return transactionOf(await client.epayment.get(providerReference, { msn: await merchantOf(providerReference) }));
    } catch (error) {
      if (error instanceof VippsApiError && error.status === 404) throw new ProviderNotFoundError(`Vipps MobilePay has no ${providerReference}`);
      throw error;
    }
  }

  /**
   * Stops an agreement (PENDING or ACTIVE; with `onlyPending` only one the payer has not approved)
   * at the provider; one already stopped or expired is left as it is. Its open charges end with it.
   */
  async function stop(agreementId: string, onlyPending = false): Promise<void> {
    const msn = await merchantOf(agreementId);
    const current = await client.recurring.getAgreement(agreementId, { msn });
    if (current.status !== 'PENDING' && (onlyPending || current.status !== 'ACTIVE')) return;
    await client.recurring.updateAgreement(agreementId, { status: 'STOPPED' }, { idempotencyKey: fitKey(`stop:${agreementId}`, 'recurring'), msn });
  }

  /** Registers our webhook for one sales unit, or finds the registration made before. */
  async function registerFor(msn: string): Promise<void> {
    await db.transaction(async (tx) => {
      // One instance registers; the others wait and find its registration.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${registrationName(msn)}))`);
      // In the transaction: PGlite is one connection, and the transaction holds it.
      const stored = await storedRegistration(msn, tx);
      const existing = (await client.webhooks.list({ msn })).webhooks;
      const ours = stored && stored.url === callbackUrl ? existing.find((hook) => hook.id === stored.id) : undefined;
      if (stored && ours && WEBHOOK_EVENTS.every((event) => ours.events.includes(event))) {
        registrations.set(msn, stored);
        return;
      }
      // Ours from before whose secret we no longer have (or for another URL): replaced, so no callback is signed with a secret we cannot check.
      for (const hook of existing) if (hook.url === callbackUrl || hook.id === stored?.id) await client.webhooks.delete(hook.id, { msn });
      const created = await client.webhooks.register({ url: callbackUrl, events: [...WEBHOOK_EVENTS] }, { msn });
      const next: Registration = { id: created.id, url: callbackUrl, secret: created.secret };
      await tx
        .insert(billingSecret)
        .values({ name: registrationName(msn), value: JSON.stringify(next) })
        .onConflictDoUpdate({ target: billingSecret.name, set: { value: JSON.stringify(next) } });
      registrations.set(msn, next);
      log.info({ webhookId: created.id, url: callbackUrl, merchantSerialNumber: msn }, 'Vipps MobilePay webhook registered');
    });
  }

  /** The Vipps agreements of the subscription a payment of ours is for, newest first: where a charge of it would be. */
  async function agreementsOfPayment(paymentId: string): Promise<string[]> {
    const rows = await db
      .select({ agreementId: paymentAgreement.providerAgreementId })
      .from(payment)
      .innerJoin(paymentAgreement, eq(paymentAgreement.subscriptionId, payment.subscriptionId))
      .where(and(eq(payment.id, paymentId), eq(paymentAgreement.method, 'VIPPS'), eq(paymentAgreement.provider, VIPPS_PROVIDER_NAME)))
      .orderBy(desc(paymentAgreement.createdAt));
    return rows.map((row) => row.agreementId).filter((id): id is string => id !== null);
  }

  return {
    name: VIPPS_PROVIDER_NAME,
    // Recurring is the Vipps app: a card is a way to pay an invoice here, never one kept for later.
    storesCards: false,

    async registerWebhook() {
      // Each sales unit on its own: one that fails (keys not yet valid for it) does not keep the others from theirs.
      const failures: unknown[] = [];
      for (const msn of merchants) await registerFor(msn).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw failures[0];
    },

    stopAgreement: stop,

    async maintain() {
      // Each sales unit on its own: one that cannot register yet does not hold up the others.
      const failures: unknown[] = [];
      for (const msn of merchants) if (!registrations.has(msn)) await registerFor(msn).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw failures[0];
    },

    async createPayment(input) {
      const msn = merchantOfTitle(input.titleCode);
      if (input.kind === 'AGREEMENT') {
        // Vipps MobilePay keeps no card for us to charge later: a stored card needs another provider.
        if (input.method !== 'VIPPS' || !input.agreementTerms) throw new ProviderUnavailableError('Vipps MobilePay stores no cards: only a Vipps agreement');
        const draft = await client.recurring.createAgreement(agreementDraft(input.agreementTerms, input.portalOrigin, input.returnUrl, input.merchantReference), {
          idempotencyKey: fitKey(input.idempotencyKey, 'recurring'),
          msn,
        });
        await remember(draft.agreementId, msn);
        return { providerReference: draft.agreementId, redirectUrl: draft.vippsConfirmationUrl };
      }
      if (input.method === 'VIPPS' && input.agreementTerms) {
        // A subscription bought with Vipps: an agreement whose first charge is the order's amount, so
        // the renewals that follow are charged on it (Recurring's initialCharge, captured when approved).
        const draft = await client.recurring.createAgreement(
          {
            ...agreementDraft(input.agreementTerms, input.portalOrigin, input.returnUrl, input.merchantReference),
            initialCharge: { amount: input.amountOre, description: input.description.slice(0, 45), transactionType: 'DIRECT_CAPTURE', orderId: input.merchantReference },
          },
          { idempotencyKey: fitKey(input.idempotencyKey, 'recurring'), msn },
        );
        await remember(draft.agreementId, msn);
        return { providerReference: chargeReference(draft.agreementId, draft.chargeId ?? input.merchantReference), redirectUrl: draft.vippsConfirmationUrl };
      }
      // Before the call: a payment whose answer is lost is still looked up at its own sales unit.
      await remember(input.merchantReference, msn);
      const created = await client.epayment.create(
        {
          amount: nok(input.amountOre),
          paymentMethod: { type: input.method === 'VIPPS' ? 'WALLET' : 'CARD' },
          // Our payment id: look-ups by our reference need no other bookkeeping.
          reference: input.merchantReference,
          returnUrl: `${input.portalOrigin}${input.returnUrl}`,
          userFlow: 'WEB_REDIRECT',
          paymentDescription: input.description.slice(0, 100),
        },
        { idempotencyKey: fitKey(input.idempotencyKey), msn },
      );
      if (!created.redirectUrl) throw new ProviderUnavailableError('Vipps MobilePay answered a WEB_REDIRECT payment without a redirectUrl');
      return { providerReference: created.reference, redirectUrl: created.redirectUrl };
    },

    async verifyCallback({ method, headers, rawBody }): Promise<CallbackEvent> {
      const check = (known: Registration) => {
        // Vipps MobilePay signs the URL we registered: its host and path, whatever a proxy made of them on the way in.
        const registered = new URL(known.url);
        return verifyWebhookRequest({
          secret: known.secret,
          method,
          pathAndQuery: `${registered.pathname}${registered.search}`,
          host: registered.host,
          headers,
          body: rawBody,
          now,
          maxAgeMs: CALLBACK_MAX_AGE_MS,
        });
      };
      // Each sales unit has its own registration and secret: the callback is ours if one of them signed it.
      const checkAll = () => {
        let answer: ReturnType<typeof check> | undefined;
        for (const known of registrations.values()) {
          const result = check(known);
          if (result.ok) return result;
          // A reason other than the signature (stale, a wrong content hash) says more than "not this secret".
          if (!answer || (!answer.ok && answer.reason === 'BAD_SIGNATURE')) answer = result;
        }
        return answer;
      };
      const reload = async () => {
        for (const msn of merchants) {
          const stored = await storedRegistration(msn);
          if (stored) registrations.set(msn, stored);
        }
      };
      if (registrations.size < merchants.length) await reload();
      let verified = checkAll();
      if (!verified) throw new CallbackSignatureError('no Vipps MobilePay webhook is registered');
      if (!verified.ok && verified.reason === 'BAD_SIGNATURE') {
        // Another instance may have registered anew since this one read the secrets.
        await reload();
        verified = checkAll() ?? verified;
      }
      if (!verified.ok) throw new CallbackSignatureError(`Vipps MobilePay webhook refused: ${verified.reason}`);
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new CallbackSignatureError('malformed Vipps MobilePay webhook body');
      }
      // Recurring: the payload is not in the published documents, so only its ids are read; the agreement or charge is looked up.
      const agreementEvent = RecurringAgreementWebhookEvent.safeParse(body);
      if (agreementEvent.success) {
        const { agreementId, eventType, occurred } = agreementEvent.data;
        return { eventId: `${agreementId}:${eventType}:${occurred}`, providerReference: agreementId, merchantReference: '', status: 'CREATED', agreementId };
      }
      const chargeEvent = RecurringChargeWebhookEvent.safeParse(body);
      if (chargeEvent.success) {
        const { agreementId, chargeId, eventType, occurred } = chargeEvent.data;
        // Our payment id is the charge's id (chargeAgreement's orderId).
        return { eventId: `${chargeId}:${eventType}:${occurred}`, providerReference: chargeReference(agreementId, chargeId), merchantReference: chargeId, status: 'CREATED' };
      }
      const parsed = EpaymentWebhookEvent.safeParse(body);
      if (!parsed.success) throw new CallbackSignatureError('malformed Vipps MobilePay webhook body');
      const event = parsed.data;
      // The event says "look": the engine asks for the payment's state, whatever the event's name.
      return {
        eventId: `${event.reference}:${event.name}:${event.pspReference}`,
        providerReference: event.reference,
        merchantReference: event.reference,
        status: event.name === 'AUTHORIZED' ? 'AUTHORIZED' : event.name === 'CAPTURED' ? 'CAPTURED' : event.name === 'REFUNDED' ? 'REFUNDED' : event.name === 'CREATED' ? 'CREATED' : 'CANCELLED',
      };
    },

    async capture(providerReference, amountOre, idempotencyKey) {
      // Charges are DIRECT_CAPTURE: captured by the provider when they are charged.
      if (parseChargeReference(providerReference) || isAgreementReference(providerReference)) return lookup(providerReference);
      return transactionOf(await client.epayment.capture(providerReference, nok(amountOre), { idempotencyKey: fitKey(idempotencyKey), msn: await merchantOf(providerReference) }));
    },

    async refund(providerReference, amountOre, idempotencyKey) {
      const msn = await merchantOf(providerReference);
      const charge = parseChargeReference(providerReference);
      if (charge) {
        await client.recurring
          .refundCharge(charge.agreementId, charge.chargeId, { amount: amountOre, description: 'Tilbakebetaling' }, { idempotencyKey: fitKey(idempotencyKey, 'recurring'), msn })
          .catch((error: unknown) => {
            if (!refused(error)) throw error;
          });
        return chargeTransaction(charge.agreementId, charge.chargeId);
      }
      try {
        return transactionOf(await client.epayment.refund(providerReference, nok(amountOre), { idempotencyKey: fitKey(idempotencyKey), msn }));
      } catch (error) {
        // Refused (nothing left to refund, say): what the payment says now is the answer.
        if (refused(error)) return transactionOf(await client.epayment.get(providerReference, { msn }));
        throw error;
      }
    },

    async cancel(providerReference) {
      const msn = await merchantOf(providerReference);
      const charge = parseChargeReference(providerReference);
      if (charge) {
        // An order's first charge before the payer approved its agreement: the agreement is what is
        // waiting, and stopping it ends the charge too.
        if ((await client.recurring.getAgreement(charge.agreementId, { msn })).status === 'PENDING') {
          // Approved a moment ago after all: left alone, and the charge's state below says so.
          await stop(charge.agreementId, true);
          return chargeTransaction(charge.agreementId, charge.chargeId);
        }
        await client.recurring
          .cancelCharge(charge.agreementId, charge.chargeId, { idempotencyKey: fitKey(`cancel:${providerReference}:${randomUUID()}`, 'recurring'), msn })
          .catch((error: unknown) => {
            if (!refused(error)) throw error;
          });
        return chargeTransaction(charge.agreementId, charge.chargeId);
      }
      if (isAgreementReference(providerReference)) {
        // A flow we no longer want: its agreement is stopped, pending or already approved (a stored one is stopped by stopAgreement).
        await stop(providerReference);
        return agreementTransaction(providerReference);
      }
      try {
        // A cancel moves no money, so each attempt has its own key: one refused earlier (the payer
        // was approving just then) must not be answered from the provider's memory of that refusal.
        return transactionOf(await client.epayment.cancel(providerReference, { idempotencyKey: fitKey(`cancel:${providerReference}:${randomUUID()}`), msn }));
      } catch (error) {
        // Too late to cancel (captured, or already ended): the payment's own state is the answer.
        if (refused(error)) return transactionOf(await client.epayment.get(providerReference, { msn }));
        throw error;
      }
    },

    lookup,

    async lookupByMerchantReference(merchantReference) {
      const notFound = (error: unknown) => error instanceof VippsApiError && error.status === 404;
      try {
        return transactionOf(await client.epayment.get(merchantReference, { msn: await merchantOf(merchantReference) }));
      } catch (error) {
        if (!notFound(error)) throw error;
      }
      // Not an ePayment: a renewal charge whose answer was lost has our payment id as its charge id.
      for (const agreementId of await agreementsOfPayment(merchantReference)) {
        try {
          return await chargeTransaction(agreementId, merchantReference);
        } catch (error) {
          if (!notFound(error)) throw error;
        }
      }
      return null;
    },

    async agreement(agreementId) {
      const agreement = await client.recurring.getAgreement(agreementId, { msn: await merchantOf(agreementId) });
      if (agreement.status !== 'ACTIVE') return null;
      return { agreementId, method: 'VIPPS', card: null, phoneNumber: null };
    },

    chargeLeadDays: CHARGE_LEAD_DAYS,

    async chargeAgreement(input) {
      // Drawn on the invoice's due date, or as soon as Vipps MobilePay takes it (a late run, a retry).
      const due = [input.dueOn, addDays(osloToday(now()), CHARGE_LEAD_DAYS)].sort().at(-1) as string;
      const created = await client.recurring.createCharge(
        input.agreementId,
        // Our payment id as the charge's id: a charge whose answer is lost is found again by it.
        { amount: input.amountOre, transactionType: 'DIRECT_CAPTURE', description: input.description.slice(0, 45), due, retryDays: 5, orderId: input.merchantReference },
        { idempotencyKey: fitKey(input.idempotencyKey, 'recurring'), msn: await merchantOf(input.agreementId) },
      );
      return chargeTransaction(input.agreementId, created.chargeId);
    },
  };
}
