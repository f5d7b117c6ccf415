import type { FastifyBaseLogger } from 'fastify';
import { businessErrorCodes, businessMessages, isBusinessAdmin, osloToday } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { SignedInSubscriber } from '../auth/index.ts';
import { accessOn, type AccountService } from '../subscription/index.ts';
import { overviewOf, refuse, type AdminContext } from './company-record.ts';
import { createBusinessEinvoice } from './einvoice.ts';
import { createBusinessMembers } from './members.ts';
import { createBusinessVerification } from './verification.ts';

export interface BusinessDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  now: () => Date;
  log: FastifyBaseLogger;
  identityProviderName: string;
}

/**
 * Business subscriptions (SPEC §2 /bedrift and /administrer-bedrift, §6 roles): the admin
 * invites colleagues of the company's domain in bulk, within the seat limit, and removes
 * them in bulk (members.ts), and says where the company's EHF invoices go (einvoice.ts); an
 * employee proves a work address of that domain with a code and gets access under the
 * company's subscription (verification.ts; docs/decisions/011-business-and-student.md).
 */
export function createBusinessService({ db, mailer, accounts, now, log, identityProviderName }: BusinessDeps) {
  const today = () => osloToday(now());

  return {
    /** The admin's company subscription at this title; 403 for everyone else (SPEC §6: admins manage invited e-mails). */
    async adminContext({ user, title, subscription: own }: SignedInSubscriber): Promise<AdminContext> {
      if (!own || !own.companyDomain || !isBusinessAdmin(own) || !accessOn(own, today())) {
        throw refuse(403, businessErrorCodes.notAdmin, businessMessages.notAdmin);
      }
      return { user, title, subscriptionId: own.id, companyDomain: own.companyDomain };
    },

    overview: (ctx: AdminContext) => overviewOf(db, ctx.subscriptionId),
    ...createBusinessEinvoice({ db, now }),
    ...createBusinessMembers({ db, mailer, now, log }),
    ...createBusinessVerification({ db, mailer, accounts, now, identityProviderName }),
  };
}

export type BusinessService = ReturnType<typeof createBusinessService>;
