import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  EPAYMENT_EVENT_TYPES,
  EpaymentWebhookEvent,
  VippsApiError,
  verifyWebhookRequest,
  type Amount,
  type GetPaymentResponse,
  type ModificationResponse,
  type VippsClient,
} from '@minside/vipps';
import type { Db } from '../../db/client.ts';
import { billingSecret } from '../../db/schema.ts';
import { CallbackSignatureError, ProviderUnavailableError, type CallbackEvent, type PaymentProvider, type ProviderStatus, type ProviderTransaction } from './provider.ts';

/**
 * Vipps MobilePay behind the PaymentProvider seam (issue 22, ADR 025): the ePayment API for "Betal
 * med Vipps" (WALLET) and card payments (CARD, the card form at Vipps MobilePay), its webhooks
 * signed with the secret of our registration, and look-ups as the truth. It talks to whatever
 * VIPPS_BASE_URL names — the provider, its test environment or the simulator — the same way.
 *
 * Not yet: Recurring (a subscription paid by Vipps: the agreement and its charges). Those calls
 * fail as unavailable, and production does not start with this provider until they exist.
 */

export const VIPPS_PROVIDER_NAME = 'vipps';
export const VIPPS_CALLBACK_PATH = '/api/payment/callback/vipps';

/**
 * How old a signed callback may be. A callback only makes the engine look the payment up, so a
 * replay moves nothing; the provider retries a failed delivery for days, and whether it signs each
 * retry anew is not in its documents: a correctly signed late one is still taken.
 */
const CALLBACK_MAX_AGE_MS = 8 * 24 * 60 * 60 * 1000;

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
  merchantSerialNumber: string;
  /** Where Vipps MobilePay sends the webhooks: PUBLIC_URL + VIPPS_CALLBACK_PATH. */
  callbackUrl: string;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
}

export type VippsProvider = PaymentProvider & {
  /** Registers our webhook with the Webhooks API once per merchant (or finds the registration we made before). */
  registerWebhook(): Promise<void>;
};

const nok = (ore: number): Amount => ({ currency: 'NOK', value: ore });

/** Idempotency keys are at most 50 characters at Vipps MobilePay: a long key is hashed to fit, the same each time. */
function fitKey(key: string): string {
  return key.length <= 50 ? key : `h-${createHash('sha256').update(key).digest('base64url').slice(0, 43)}`;
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

export function createVippsProvider({ client, db, now, merchantSerialNumber, callbackUrl, log }: VippsProviderOptions): VippsProvider {
  let registration: Registration | undefined;

  async function storedRegistration(executor: Db = db): Promise<Registration | undefined> {
    const [row] = await executor.select({ value: billingSecret.value }).from(billingSecret).where(eq(billingSecret.name, registrationName(merchantSerialNumber)));
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as Registration;
    } catch {
      return undefined;
    }
  }

  const recurringNotBuilt = async (): Promise<never> => {
    throw new ProviderUnavailableError('Vipps MobilePay Recurring (agreements and charges) is not built yet (issue 22)');
  };

  return {
    name: VIPPS_PROVIDER_NAME,

    async registerWebhook() {
      await db.transaction(async (tx) => {
        // One instance registers; the others wait and find its registration.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${registrationName(merchantSerialNumber)}))`);
        // In the transaction: PGlite is one connection, and the transaction holds it.
        const stored = await storedRegistration(tx);
        const existing = (await client.webhooks.list()).webhooks;
        if (stored && stored.url === callbackUrl && existing.some((hook) => hook.id === stored.id)) {
          registration = stored;
          return;
        }
        // Ours from before whose secret we no longer have (or for another URL): replaced, so no callback is signed with a secret we cannot check.
        for (const hook of existing) if (hook.url === callbackUrl || hook.id === stored?.id) await client.webhooks.delete(hook.id);
        const created = await client.webhooks.register({ url: callbackUrl, events: [...EPAYMENT_EVENT_TYPES] });
        const next: Registration = { id: created.id, url: callbackUrl, secret: created.secret };
        await tx
          .insert(billingSecret)
          .values({ name: registrationName(merchantSerialNumber), value: JSON.stringify(next) })
          .onConflictDoUpdate({ target: billingSecret.name, set: { value: JSON.stringify(next) } });
        registration = next;
        log.info({ webhookId: created.id, url: callbackUrl }, 'Vipps MobilePay webhook registered');
      });
    },

    async maintain() {
      if (!registration) await this.registerWebhook();
    },

    async createPayment(input) {
      if (input.kind === 'AGREEMENT') return recurringNotBuilt();
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
        { idempotencyKey: fitKey(input.idempotencyKey) },
      );
      if (!created.redirectUrl) throw new ProviderUnavailableError('Vipps MobilePay answered a WEB_REDIRECT payment without a redirectUrl');
      return { providerReference: created.reference, redirectUrl: created.redirectUrl };
    },

    async verifyCallback({ method, headers, rawBody }): Promise<CallbackEvent> {
      const check = (known: Registration) => {
        // Vipps MobilePay signs the URL we registered: its host and path, whatever a proxy made of them on the way in.
        const registered = new URL(known.url);
        return verifyWebhookRequest({ secret: known.secret, method, pathAndQuery: `${registered.pathname}${registered.search}`, host: registered.host, headers, body: rawBody, now, maxAgeMs: CALLBACK_MAX_AGE_MS });
      };
      registration ??= await storedRegistration();
      if (!registration) throw new CallbackSignatureError('no Vipps MobilePay webhook is registered');
      let verified = check(registration);
      if (!verified.ok && verified.reason === 'BAD_SIGNATURE') {
        // Another instance may have registered anew since this one read the secret.
        const latest = await storedRegistration();
        if (latest && latest.secret !== registration.secret) {
          registration = latest;
          verified = check(latest);
        }
      }
      if (!verified.ok) throw new CallbackSignatureError(`Vipps MobilePay webhook refused: ${verified.reason}`);
      let event: EpaymentWebhookEvent;
      try {
        event = EpaymentWebhookEvent.parse(JSON.parse(rawBody));
      } catch {
        throw new CallbackSignatureError('malformed Vipps MobilePay webhook body');
      }
      // The event says "look": the engine asks for the payment's state, whatever the event's name.
      return {
        eventId: `${event.reference}:${event.name}:${event.pspReference}`,
        providerReference: event.reference,
        merchantReference: event.reference,
        status: event.name === 'AUTHORIZED' ? 'AUTHORIZED' : event.name === 'CAPTURED' ? 'CAPTURED' : event.name === 'REFUNDED' ? 'REFUNDED' : event.name === 'CREATED' ? 'CREATED' : 'CANCELLED',
      };
    },

    async capture(providerReference, amountOre, idempotencyKey) {
      return transactionOf(await client.epayment.capture(providerReference, nok(amountOre), { idempotencyKey: fitKey(idempotencyKey) }));
    },

    async refund(providerReference, amountOre, idempotencyKey) {
      try {
        return transactionOf(await client.epayment.refund(providerReference, nok(amountOre), { idempotencyKey: fitKey(idempotencyKey) }));
      } catch (error) {
        // Refused (nothing left to refund, say): what the payment says now is the answer.
        if (error instanceof VippsApiError && error.status >= 400 && error.status < 500) return transactionOf(await client.epayment.get(providerReference));
        throw error;
      }
    },

    async cancel(providerReference) {
      try {
        // A cancel moves no money, so each attempt has its own key: one refused earlier (the payer
        // was approving just then) must not be answered from the provider's memory of that refusal.
        return transactionOf(await client.epayment.cancel(providerReference, { idempotencyKey: fitKey(`cancel:${providerReference}:${randomUUID()}`) }));
      } catch (error) {
        // Too late to cancel (captured, or already ended): the payment's own state is the answer.
        if (error instanceof VippsApiError && error.status >= 400 && error.status < 500) return transactionOf(await client.epayment.get(providerReference));
        throw error;
      }
    },

    async lookup(providerReference) {
      return transactionOf(await client.epayment.get(providerReference));
    },

    async lookupByMerchantReference(merchantReference) {
      try {
        return transactionOf(await client.epayment.get(merchantReference));
      } catch (error) {
        if (error instanceof VippsApiError && error.status === 404) return null;
        throw error;
      }
    },

    agreement: recurringNotBuilt,
    chargeAgreement: recurringNotBuilt,
  };
}
