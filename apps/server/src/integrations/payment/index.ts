import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentProvider } from './provider.ts';
import { ensureBillingSecret } from './secrets.ts';
import { createTestProvider, type TestProvider } from './test-provider.ts';

export type { PaymentProvider } from './provider.ts';
export { CallbackSignatureError, ProviderUnavailableError } from './provider.ts';

export interface ConfiguredProvider {
  provider: PaymentProvider;
  /** Routes the provider itself serves in this process (the test provider's hosted page), if any. */
  registerRoutes?: TestProvider['registerHostedPage'];
  /** Where the provider's callbacks are delivered in-process (the test provider only). */
  connect?: TestProvider['setDelivery'];
}

/**
 * The payment provider PAYMENT_PROVIDER names. Only the embedded test provider ships today;
 * a real adapter (Vipps ePayment/Recurring, Swedbank Pay, Nets AvtaleGiro) implements
 * PaymentProvider and is added here, with its keys in configuration.
 */
export async function createPaymentProvider(config: Pick<Config, 'paymentProvider'>, db: Db, now: () => Date): Promise<ConfiguredProvider> {
  switch (config.paymentProvider) {
    case 'test': {
      const provider = createTestProvider({ db, now, webhookSecret: await ensureBillingSecret(db, 'test_provider_webhook') });
      return { provider, registerRoutes: (app) => provider.registerHostedPage(app), connect: (deliver) => provider.setDelivery(deliver) };
    }
  }
}
