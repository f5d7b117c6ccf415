// The consent area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { createConsentPermissionService } from './permissions.ts';
import { consentRoutes } from './routes.ts';
import { createConsentService } from './service.ts';
import type { ClientSettings } from '../../config/client-settings.ts';

export { thirdPartySources } from './settings.ts';
export type { ClientSettings } from '../../config/client-settings.ts';

/** Consent and permissions (SPEC §8) under /api/consent, signed in; the browser's client set-up, public. */
export async function registerConsent(
  app: FastifyInstance,
  deps: { db: Db; now: () => Date; catalogue: Catalogue; settings: ClientSettings; isOfferedTitle: (code: string) => boolean },
): Promise<void> {
  const { db, now, catalogue, settings, isOfferedTitle } = deps;
  await app.register(consentRoutes, {
    consent: createConsentService({ db, now, isOfferedTitle }),
    permissions: createConsentPermissionService({ db, now, isOfferedTitle }),
    catalogue,
    settings,
  });
}

export { clientConfigOf } from './settings.ts';
