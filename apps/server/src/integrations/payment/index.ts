import { ConfigError, type Config, type VippsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { startEmbeddedVippsSimulator, type EmbeddedVippsSimulator } from './embedded-vipps-simulator.ts';
import { CallbackSignatureError, ProviderUnavailableError, type PaymentProvider } from './provider.ts';
import { ensureBillingSecret } from './secrets.ts';
import { createTestProvider, type TestProvider } from './test-provider.ts';
import { createVippsProvider, VIPPS_CALLBACK_PATH, type VippsProviderOptions } from './vipps-provider.ts';
import { createVippsClient } from '@minside/vipps';
import type { VippsSimulator } from '@minside/vipps/simulator';

/** Posts a provider's callback to the app in-process (app.inject) and says how it was answered. */
export type InProcessDelivery = (path: string, body: string, headers: Record<string, string>) => Promise<{ statusCode: number }>;

export interface ConfiguredProvider {
  provider: PaymentProvider;
  /** Routes the provider itself serves in this process (the test provider's hosted page), if any. */
  registerRoutes?: TestProvider['registerHostedPage'];
  /** Where the callbacks of a provider in this process (the test provider, the embedded Vipps MobilePay simulator) are delivered. */
  connect?: (deliver: InProcessDelivery) => void;
  /** Stops what the provider runs in this process (the embedded simulator), when the app closes. */
  close?: () => Promise<void>;
  /** The Vipps MobilePay simulator embedded in this process (development and tests only). */
  simulator?: VippsSimulator;
}

/**
 * The payment provider PAYMENT_PROVIDER names: the test provider (/_dev/pay), or Vipps MobilePay's
 * adapter at VIPPS_BASE_URL or, unset outside production, against the simulator embedded in this
 * process (ADR 025 "Development default"). Without one (an app built for https in a test;
 * loadConfig never serves production without a provider) every payment call fails as
 * unavailable: the payer gets 503 PAYMENT_PROVIDER_UNAVAILABLE and nothing is charged.
 */
export async function createPaymentProvider(
  config: Pick<Config, 'paymentProvider' | 'vipps' | 'publicUrl' | 'port' | 'production'>,
  db: Db,
  now: () => Date,
  log: VippsProviderOptions['log'],
  /** Titles with their own Vipps MobilePay sales unit (the catalogue's `vippsMerchantSerialNumber`). */
  titleMerchants: ReadonlyMap<string, string> = new Map(),
): Promise<ConfiguredProvider> {
  switch (config.paymentProvider) {
    case 'test': {
      const provider = createTestProvider({ db, now, webhookSecret: await ensureBillingSecret(db, 'test_provider_webhook') });
      return {
        provider,
        registerRoutes: (app) => provider.registerHostedPage(app),
        connect: (deliver) =>
          provider.setDelivery(async (path, body, headers) => {
            await deliver(path, body, headers);
          }),
      };
    }
    case 'vipps': {
      if (!config.vipps) throw new Error('PAYMENT_PROVIDER=vipps without its configuration (loadConfig requires it)');
      const origin = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
      let vipps: VippsConfig;
      let embedded: EmbeddedVippsSimulator | undefined;
      if ('embeddedSimulator' in config.vipps) {
        // As buildApp refuses the test provider: a configuration made in code cannot take the simulator to production either.
        if (config.production || origin.startsWith('https://'))
          throw new ConfigError(
            'Invalid configuration: PAYMENT_PROVIDER: the embedded Vipps MobilePay simulator moves no money; production (NODE_ENV=production or an https PUBLIC_URL) pays through https://api.vipps.no',
          );
        embedded = await startEmbeddedVippsSimulator({ config: config.vipps, titleMerchants: titleMerchants.values(), db, now, portalOrigin: origin, log });
        vipps = embedded.account;
      } else {
        vipps = config.vipps;
      }
      const client = createVippsClient({ ...vipps, system: { name: 'minside', version: '1.0.0' }, now });
      const provider = createVippsProvider({ client, db, now, merchantSerialNumber: vipps.merchantSerialNumber, titleMerchants, callbackUrl: `${origin}${VIPPS_CALLBACK_PATH}`, log });
      // Vipps MobilePay away at start-up must not keep the portal down: callbacks wait for the
      // registration (refused unsigned, the provider retries) and reconciliation asks meanwhile.
      await provider
        .registerWebhook()
        .catch((error: unknown) => log.error({ err: error }, 'Vipps MobilePay webhook registration failed; payments are settled by look-ups, and the reconciliation job tries again'));
      return embedded ? { provider, connect: embedded.connect, close: embedded.close, simulator: embedded.simulator } : { provider };
    }
    case undefined:
      return { provider: noProvider };
  }
}

const unavailable = async (): Promise<never> => {
  throw new ProviderUnavailableError('no payment provider is configured (PAYMENT_PROVIDER)');
};

/** No provider configured: every call fails before anything could be charged. */
const noProvider: PaymentProvider = {
  name: 'none',
  storesCards: false,
  createPayment: unavailable,
  // No provider signs callbacks: every one is refused as unsigned (401).
  verifyCallback: async () => {
    throw new CallbackSignatureError('no payment provider is configured (PAYMENT_PROVIDER)');
  },
  capture: unavailable,
  refund: unavailable,
  cancel: unavailable,
  lookup: unavailable,
  lookupByMerchantReference: unavailable,
  agreement: unavailable,
  chargeAgreement: unavailable,
};
