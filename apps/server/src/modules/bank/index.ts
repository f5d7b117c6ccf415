import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { portalOriginFor } from '../../lib/portal-url.ts';
import { createBankFileArchive } from './archive.ts';
import { bankRoutes } from './routes.ts';
import { createBankService, type BankService } from './service.ts';
import { createBankTransport } from './transport.ts';

// What other parts of the server use of this area (eslint.config.js, areaZones).
export { settlementCsv } from './settlement.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The bank rails (issue 21): imports, claims, the exchange with the bank, reconciliation — for the CLI, the jobs and tests. */
    bank: BankService;
  }
}

export interface BankSetup {
  config: Pick<Config, 'operatorToken' | 'publicUrl' | 'port' | 'bankCustomerUnitId' | 'bankFilesDir' | 'bankSftp' | 'production'>;
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
}

export async function registerBank(app: FastifyInstance, { config, db, catalogue, mailer, now }: BankSetup): Promise<void> {
  const bank = createBankService({
    db,
    catalogue,
    mailer,
    archive: createBankFileArchive(config.bankFilesDir),
    transport: createBankTransport({ root: config.bankFilesDir, sftp: config.bankSftp, production: config.production, log: app.log }),
    customerUnitId: config.bankCustomerUnitId,
    production: config.production,
    now,
    portalOrigin: portalOriginFor(config, catalogue),
    log: app.log,
  });
  app.decorate('bank', bank);
  await app.register(bankRoutes, { prefix: '/api/operator', bank, operatorToken: config.operatorToken });
}
