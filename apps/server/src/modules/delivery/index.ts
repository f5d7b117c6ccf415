// The delivery area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { ComplaintCrediting } from '../billing/index.ts';
import type { ChangeMails } from '../subscription/index.ts';
import type { createCalendarCache } from './calendars.ts';
import { carrierFeed } from './feed.ts';
import { createDeliveryNotices } from './notices.ts';
import { deliveryRoutes } from './routes.ts';
import { createDeliveryService, type DeliveryService } from './service.ts';

export interface DeliverySetup {
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
  /** SPEC §5: the cutoff time (HH:MM, Europe/Oslo) the day before the first affected issue. */
  cutoffTime: string;
  calendarOf: ReturnType<typeof createCalendarCache>;
  complaintCrediting: ComplaintCrediting;
  mails: ChangeMails;
  portalOrigin: (titleCode: string) => string;
  /** OPERATOR_TOKEN: the carrier desk's endpoints answer 404 while it is unset. */
  operatorToken: string | undefined;
}

/**
 * Paper delivery (issue 5) under /api/delivery, signed in (`app.authenticate` on the prefix), and
 * the carrier desk's operator endpoints. Returns the service the home overview reads.
 */
export async function registerDelivery(app: FastifyInstance, setup: DeliverySetup): Promise<DeliveryService> {
  const { db, catalogue, mailer, now, cutoffTime, calendarOf, complaintCrediting, mails, portalOrigin, operatorToken } = setup;
  const notices = createDeliveryNotices({ db, catalogue, mailer, now, calendarOf, portalOrigin });
  const delivery = createDeliveryService({ db, catalogue, now, cutoffTime, calendarOf, noticesFor: notices.noticesFor, complaintCrediting, mails });
  await app.register(deliveryRoutes, { delivery, notices, operatorToken, feed: (titleCode, date) => carrierFeed({ db, catalogue, cutoffTime }, titleCode, date) });
  return delivery;
}

export { createCalendarCache } from './calendars.ts';

export { carrierFeed } from './feed.ts';
export { createDeliveryNotices } from './notices.ts';
export { postalCodeEntries, townOf } from './postal-codes.ts';
export type { DeliveryService } from './service.ts';
