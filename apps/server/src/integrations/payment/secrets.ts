import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { billingSecret } from '../../db/schema.ts';

/**
 * A billing secret (pay-link HMAC key, the test provider's webhook key): configuration when
 * given, otherwise generated once and kept in `billing_secret`. Every instance inserts a
 * candidate with ON CONFLICT DO NOTHING and reads back what is stored, so instances that
 * start together agree (the same pattern as identity/provider/secrets.ts).
 */
export async function ensureBillingSecret(db: Db, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const read = async () => (await db.select({ value: billingSecret.value }).from(billingSecret).where(eq(billingSecret.name, name)).limit(1))[0]?.value;
  const stored = await read();
  if (stored) return stored;
  await db
    .insert(billingSecret)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: billingSecret.name });
  const value = await read();
  if (!value || value.length < 32) throw new Error(`billing_secret '${name}' is missing or malformed`);
  return value;
}
