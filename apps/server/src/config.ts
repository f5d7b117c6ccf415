import { z } from 'zod';

/**
 * Environment → typed configuration. Every embedded part is replaced by configuration,
 * never by code edits (ARCHITECTURE "Shape"). Fails fast naming the variable.
 */
const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0', ''])
  .transform((value) => value === 'on' || value === 'true' || value === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: z.url().optional().or(z.literal('').transform(() => undefined)),
  TITLES_FILE: z.string().optional().or(z.literal('').transform(() => undefined)),
  MAINTENANCE: onOff.default(false),
  IDENTITY_PROVIDER_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9]*$/, 'must be lower-case letters and digits, e.g. spid')
    .default('spid'),
  OIDC_CLIENT_ID: z.string().min(1).default('minside'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  /** Where the embedded parts keep their files (PGlite data, keys). */
  dataDir: string;
  /** PostgreSQL when set; PGlite under dataDir otherwise. */
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  titlesFile: string | undefined;
  maintenance: boolean;
  identityProviderName: string;
  oidcClientId: string;
  logLevel: string;
  /** The built SPA to serve; undefined serves none (API-only, as in server tests). */
  webDist: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    titlesFile: e.TITLES_FILE,
    maintenance: e.MAINTENANCE,
    identityProviderName: e.IDENTITY_PROVIDER_NAME,
    oidcClientId: e.OIDC_CLIENT_ID,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
  };
}

/** A config for tests and tools: defaults, then the given overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', webDist: undefined, ...overrides };
}
