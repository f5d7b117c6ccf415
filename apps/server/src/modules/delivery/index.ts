// The delivery area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { createCalendarCache } from './calendars.ts';
export { carrierFeed } from './feed.ts';
export { createDeliveryNotices } from './notices.ts';
export { postalCodeEntries, townOf } from './postal-codes.ts';
export { deliveryRoutes } from './routes.ts';
export { createDeliveryService } from './service.ts';
export type { DeliveryService } from './service.ts';
