import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { RateLimiter } from '../../lib/shared-state/rate-limiter.ts';
import { ensureBillingSecret } from '../../integrations/payment/secrets.ts';
import type { SessionStore } from '../../plugins/session.ts';
import { portalOriginFor } from '../../lib/portal-url.ts';
import type { createCalendarCache } from '../delivery/index.ts';
import type { AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { createConnectService } from './connect.ts';
import { orderingRoutes } from './routes.ts';
import { createOrderingService, type OrderingService } from './service.ts';
import { createWithdrawalService, type WithdrawalService } from './withdrawal.ts';
import { withdrawalRoutes } from './withdrawal-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Orders (issue 7): `ordering.repair()` is the job issue 11 schedules. */
    ordering: OrderingService;
    /** The right of withdrawal (ADR 030): `withdrawals.retryRefunds()` is the `withdrawal-refunds` job. */
    withdrawals: WithdrawalService;
  }
}

export interface OrderingSetup {
  config: Pick<Config, 'operatorToken' | 'publicUrl' | 'port' | 'paymentProvider' | 'paylinkSecret' | 'deliveryCutoffTime' | 'identityProviderName'>;
  db: Db;
  catalogue: Catalogue;
  titles: TitleService;
  accounts: AccountService;
  sessions: SessionStore;
  mailer: Mailer;
  calendarOf: ReturnType<typeof createCalendarCache>;
  now: () => Date;
  /** Shared counters (lib/shared-state): searches per client address. */
  rateLimiter: RateLimiter;
  /** The issuer whose login confirms an age (Vipps), for titles that take no self-declaration (issue 24); null when none is configured. */
  ageVerifier: { label: string } | null;
}

/** Buying and connecting subscriptions (issue 7). Registered after billing: it needs `app.paymentEngine` and `app.invoiceCrediting`. */
export async function registerOrdering(app: FastifyInstance, setup: OrderingSetup): Promise<void> {
  const { config, db, catalogue, titles, accounts, sessions, mailer, calendarOf, now, rateLimiter, ageVerifier } = setup;
  const ordering = createOrderingService({
    db,
    engine: app.paymentEngine,
    catalogue,
    titles,
    accounts,
    mailer,
    now,
    calendarOf,
    cutoffTime: config.deliveryCutoffTime,
    winbackSecret: await ensureBillingSecret(db, 'winback_hmac'),
    identityProviderName: config.identityProviderName,
    log: app.log,
    providerStoresCards: app.paymentProvider.storesCards,
    ageVerifier,
  });
  app.paymentEngine.onSettled('ORDER', (tx, row) => ordering.onSettled(tx, row));
  app.decorate('ordering', ordering);
  const connect = createConnectService({ db, mailer, accounts, titles, now, identityProviderName: config.identityProviderName, rateLimiter });
  const withdrawals = createWithdrawalService({ db, now, engine: app.paymentEngine, crediting: app.invoiceCrediting, mailer, titles, log: app.log });
  app.decorate('withdrawals', withdrawals);
  await app.register(withdrawalRoutes, { withdrawals });
  await app.register(orderingRoutes, { ordering, connect, sessions, titles, operatorToken: config.operatorToken, portalOrigin: portalOriginFor(config, catalogue) });
}
