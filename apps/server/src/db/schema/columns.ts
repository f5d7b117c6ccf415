import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers the area schemas share. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
