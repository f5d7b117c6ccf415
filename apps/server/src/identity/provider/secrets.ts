import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { idpSecret } from '../../db/schema.ts';

/**
 * The provider's secrets live in `idp_secret`, created on first start. Every instance
 * generates candidates, inserts them with ON CONFLICT DO NOTHING and reads back what is
 * stored: two instances starting together end up with the first one's secrets.
 */

const privateJwk = z.looseObject({ kty: z.string(), kid: z.string().min(1), alg: z.string(), d: z.string() });
const jwksSchema = z.object({ keys: z.array(privateJwk).min(1) });
const cookieKeysSchema = z.array(z.string().min(32)).min(1);
const clientSecretSchema = z.string().min(32);

export interface ProviderSecrets {
  /** Private signing keys, RS256 first (the default `id_token_signed_response_alg`). */
  jwks: { keys: JWK[] };
  /** Newest first: prepend a key to rotate, the old one still verifies existing cookies. */
  cookieKeys: string[];
}

async function signingKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

/** `create` makes a candidate; what is stored is validated on the way back, whoever wrote it. */
async function ensureSecret<T>(db: Db, name: string, schema: z.ZodType<T>, create: () => Promise<unknown>): Promise<T> {
  const read = async () => (await db.select({ value: idpSecret.value }).from(idpSecret).where(eq(idpSecret.name, name)).limit(1))[0];
  let row = await read();
  if (!row) {
    await db
      .insert(idpSecret)
      .values({ name, value: await create() })
      .onConflictDoNothing({ target: idpSecret.name });
    row = await read();
  }
  const parsed = schema.safeParse(row?.value);
  if (!parsed.success) {
    // A damaged secret must stop the start, not silently be replaced: replacing the signing
    // keys or cookie keys logs everybody out and breaks tokens other systems hold.
    throw new Error(`idp_secret '${name}' is missing or malformed: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  return parsed.data;
}

export async function loadProviderSecrets(db: Db): Promise<ProviderSecrets> {
  const jwks = await ensureSecret(db, 'jwks', jwksSchema, async () => ({ keys: [await signingKey('RS256'), await signingKey('ES256')] }));
  const cookieKeys = await ensureSecret(db, 'cookie_keys', cookieKeysSchema, async () => [randomBytes(32).toString('base64url')]);
  return { jwks: jwks as { keys: JWK[] }, cookieKeys };
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The embedded client's credentials, for the relying party: OIDC_CLIENT_SECRET when set,
 * otherwise the secret the provider generated and keeps in `idp_secret` (created here if
 * the provider has not started yet, so the call order does not matter).
 */
export async function embeddedClientCredentials(database: Pick<Database, 'db'>, config: Pick<Config, 'oidcClientId' | 'oidcClientSecret'>): Promise<ClientCredentials> {
  const clientSecret = config.oidcClientSecret ?? (await ensureSecret(database.db, 'client_secret', clientSecretSchema, async () => randomBytes(32).toString('base64url')));
  return { clientId: config.oidcClientId, clientSecret };
}
