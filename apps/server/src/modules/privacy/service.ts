import type { Title } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { LifecycleService } from '../subscription/index.ts';
import { createDeletion } from './deletion.ts';
import { createDataExports } from './export.ts';

export { exportArchiveOf } from './export.ts';

export interface PrivacyDeps {
  db: Db;
  mailer: Mailer;
  lifecycle: LifecycleService;
  now: () => Date;
  identityProviderName: string;
  /** The main issuer's key (`OIDC_KEY`): the user's login with it is their account at the embedded provider. */
  mainIssuerKey: string;
  /** The title whose name and colours a mail to this user carries (the account's first title). */
  titleOf: (titleCode: string | undefined) => Title;
  /** Accounts with more rows than this are exported by the job rather than during the request. */
  inlineExportLimit?: number;
  /** Ends the user's sessions wherever they live (Redis or database, ADR 018); erasure calls it. */
  endSessionsOf?: (userId: string) => Promise<void>;
  /** The catalogue: an erasure first issues the documents of invoices that have none (ADR 026). */
  catalogue: Catalogue;
}

/**
 * Data rights (issue 9 item 3). Both rights are a `data_request` row plus a job function
 * (`runExports`, `runErasures`): the request is recorded at once, the work can run now (a
 * normal export) or later in a job, and a job claims each row so two instances never do the
 * same one (data-request.ts). The copy is export.ts; the erasure's request and schedule are
 * deletion.ts, and what it deletes and keeps is erasure.ts.
 */
export function createPrivacyService({ db, mailer, lifecycle, now, identityProviderName, mainIssuerKey, titleOf, inlineExportLimit, endSessionsOf, catalogue }: PrivacyDeps) {
  return {
    ...createDataExports({ db, mailer, now, identityProviderName, mainIssuerKey, titleOf, inlineExportLimit }),
    ...createDeletion({ db, mailer, lifecycle, now, mainIssuerKey, titleOf, endSessionsOf, catalogue }),
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
