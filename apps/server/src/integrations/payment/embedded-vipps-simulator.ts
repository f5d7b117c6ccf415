import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { billingPeriodMonths, type BillingPeriod } from '@minside/domain';
import { createVippsSimulator, type VippsSimulator } from '@minside/vipps/simulator';
import { ConfigError, type EmbeddedVippsSimulatorConfig, type VippsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { paymentAgreement, subscription, vippsMerchantReference } from '../../db/schema.ts';
import type { InProcessDelivery } from './index.ts';
import { agreementDraft, VIPPS_PROVIDER_NAME } from './vipps-provider.ts';

/**
 * `npm start`'s Vipps MobilePay (ADR 025 "Development default"): the simulator of the published
 * contract (packages/vipps) in this process on 127.0.0.1, so the real adapter pays end to end with
 * no account and no network. Its keys are made up at each start; its webhooks reach the app
 * in-process (app.inject), so the `*.localhost` title hosts need no DNS. Development only:
 * loadConfig never chooses it in production.
 */

/** The demo merchant: fixed, so the webhook registration kept in `billing_secret` is found again after a restart. */
export const EMBEDDED_MERCHANT_SERIAL_NUMBER = '123456';

/** How often the due Recurring charges are taken, as Vipps MobilePay does on the due day. */
const CHARGE_INTERVAL_MS = 60_000;

export interface EmbeddedVippsSimulator {
  /** What the adapter is configured with: the simulator's URL and the keys it was made with. */
  account: VippsConfig;
  /** The simulator itself: the server tests answer for the payer with it (approve, reject, stop in the app) and turn its fault knobs. */
  simulator: VippsSimulator;
  /** Sends the simulator's webhooks through the app once it is built. */
  connect(deliver: InProcessDelivery): void;
  close(): Promise<void>;
}

export interface EmbeddedVippsSimulatorOptions {
  config: EmbeddedVippsSimulatorConfig;
  /** The sales units of titles with their own (the catalogue's): the simulator serves them too, with the same keys. */
  titleMerchants: Iterable<string>;
  db: Db;
  now: () => Date;
  /** Where the payer manages a restored agreement: the portal's origin. */
  portalOrigin: string;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
}

export async function startEmbeddedVippsSimulator({ config, titleMerchants, db, now, portalOrigin, log }: EmbeddedVippsSimulatorOptions): Promise<EmbeddedVippsSimulator> {
  const credentials = { clientId: `minside-dev-${randomUUID()}`, clientSecret: randomBytes(32).toString('base64url'), subscriptionKey: randomBytes(16).toString('hex') };
  const merchants = [...new Set([EMBEDDED_MERCHANT_SERIAL_NUMBER, ...titleMerchants])];
  let delivery: InProcessDelivery | undefined;
  const simulator = createVippsSimulator({
    now,
    credentials: { ...credentials, merchantSerialNumbers: merchants },
    merchantNames: { [EMBEDDED_MERCHANT_SERIAL_NUMBER]: 'Min Side (demo)' },
    // A webhook before the app is connected is answered 503, and the simulator tries again.
    deliver: async (url, init) => {
      if (!delivery) return new Response(null, { status: 503 });
      const target = new URL(url instanceof Request ? url.url : url);
      const answer = await delivery(`${target.pathname}${target.search}`, String(init?.body ?? ''), Object.fromEntries(new Headers(init?.headers).entries()));
      return new Response(null, { status: answer.statusCode });
    },
  });
  let url: string;
  try {
    url = await simulator.listen(config.port ?? 0, '127.0.0.1');
  } catch (error) {
    await simulator.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new ConfigError(`Invalid configuration: VIPPS_SIMULATOR_PORT: port ${config.port} is in use; choose another, or unset it for a free one`);
    throw error;
  }
  const restored = await restoreAgreements(simulator, db, portalOrigin, log).catch(async (error: unknown) => {
    await simulator.close();
    throw error;
  });
  // Vipps MobilePay takes a charge on its due day by itself; the simulator does when it is told to.
  const everyMs = config.chargesEveryMs ?? CHARGE_INTERVAL_MS;
  const charges = everyMs > 0 ? setInterval(() => void simulator.processCharges(), everyMs) : undefined;
  charges?.unref();
  log.info({ url, merchantSerialNumbers: merchants, restoredAgreements: restored }, `Vipps MobilePay simulator (development only, no money moves) at ${url}`);
  return {
    account: { baseUrl: url, ...credentials, merchantSerialNumber: EMBEDDED_MERCHANT_SERIAL_NUMBER },
    simulator,
    connect(deliver) {
      delivery = deliver;
    },
    async close() {
      clearInterval(charges);
      await simulator.close();
    },
  };
}

/**
 * The simulator forgets everything when the process stops: the ACTIVE Vipps agreements the portal
 * stored are made again, with their ids, so renewals are still charged on them. Their terms are
 * the adapter's draft from the plan (ADR 025 "Recurring": a VARIABLE price up to twice the plan's
 * price, the plan's period and name). Payments in progress are lost: their look-ups find nothing,
 * and the engine settles them as nothing charged. Returns how many were restored.
 */
async function restoreAgreements(simulator: VippsSimulator, db: Db, portalOrigin: string, log: EmbeddedVippsSimulatorOptions['log']): Promise<number> {
  const rows = await db
    .select({
      agreementId: paymentAgreement.providerAgreementId,
      // A title's own sales unit where the agreement was made with one; else the demo merchant.
      merchantSerialNumber: vippsMerchantReference.merchantSerialNumber,
      start: paymentAgreement.createdAt,
      planName: subscription.planName,
      priceOre: subscription.priceOre,
      billingPeriod: subscription.billingPeriod,
    })
    .from(paymentAgreement)
    .innerJoin(subscription, eq(subscription.id, paymentAgreement.subscriptionId))
    .leftJoin(vippsMerchantReference, eq(vippsMerchantReference.reference, paymentAgreement.providerAgreementId))
    .where(and(eq(paymentAgreement.status, 'ACTIVE'), eq(paymentAgreement.provider, VIPPS_PROVIDER_NAME), eq(paymentAgreement.method, 'VIPPS')));
  const done = new Set<string>();
  for (const row of rows) {
    if (row.agreementId === null || done.has(row.agreementId)) continue;
    const months = billingPeriodMonths[row.billingPeriod as BillingPeriod] ?? 1;
    const { externalId: _draftOnly, ...terms } = agreementDraft(
      { productName: row.planName, priceOre: row.priceOre, intervalMonths: months, agreementPath: '/endre-betalingsmetode' },
      portalOrigin,
      '/endre-betalingsmetode',
      row.agreementId,
    );
    try {
      simulator.restoreAgreement({ agreementId: row.agreementId, merchantSerialNumber: row.merchantSerialNumber ?? EMBEDDED_MERCHANT_SERIAL_NUMBER, start: row.start, ...terms });
      done.add(row.agreementId);
    } catch (error) {
      // One agreement the simulator will not take (an id of another form) must not keep the portal down.
      log.error({ err: error, agreementId: row.agreementId }, 'Vipps MobilePay simulator: could not restore an agreement');
    }
  }
  return done.size;
}
