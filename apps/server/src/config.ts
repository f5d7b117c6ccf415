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
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value): boolean | number | string[] => {
      const trimmed = value.trim();
      if (trimmed === '' || /^(off|false|0)$/i.test(trimmed)) return false;
      if (/^(on|true)$/i.test(trimmed)) return true;
      if (/^\d+$/.test(trimmed)) return Number(trimmed);
      return trimmed.split(',').map((part) => part.trim()).filter(Boolean);
    }),
  PUBLIC_URL: z.url().optional().or(z.literal('').transform(() => undefined)),
  TITLES_FILE: z.string().optional().or(z.literal('').transform(() => undefined)),
  MAINTENANCE: onOff.default(false),
  IDENTITY_PROVIDER_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9]*$/, 'must be lower-case letters and digits, e.g. spid')
    .default('spid'),
  OIDC_ISSUER: z.url().optional().or(z.literal('').transform(() => undefined)),
  OIDC_CLIENT_ID: z.string().min(1).default('minside'),
  OIDC_CLIENT_SECRET: z.string().optional().or(z.literal('').transform(() => undefined)),
  SEED_DEMO_DATA: onOff.optional(),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo1234'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  OPERATOR_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DELIVERY_CUTOFF_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM, e.g. 12:00')
    .default('12:00'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Min Side <minside@localhost>'),
});

export interface Config {
  port: number;
  host: string;
  /** Where the embedded parts keep their files (PGlite data, keys). */
  dataDir: string;
  /** PostgreSQL when set; PGlite under dataDir otherwise. */
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  /**
   * Which proxies' X-Forwarded-* headers to believe (client IP, protocol, host): off by
   * default, a hop count, or addresses/CIDRs. Believing every hop would let a client forge
   * its IP past the login throttle.
   */
  trustProxy: boolean | number | string[];
  titlesFile: string | undefined;
  maintenance: boolean;
  identityProviderName: string;
  /** An external OIDC issuer; undefined runs the embedded provider at /idp. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  /** Required with an external issuer; the embedded provider generates and keeps its own. */
  oidcClientSecret: string | undefined;
  /** Seed the demo subscribers at start. Default: on for the embedded database, off for DATABASE_URL. */
  seedDemoData: boolean;
  demoPassword: string;
  logLevel: string;
  /** The built SPA to serve; undefined serves none (API-only, as in server tests). */
  webDist: string | undefined;
  /** SPEC §5: delivery changes must be placed before this time (HH:MM, Europe/Oslo) the day before the first affected issue. */
  deliveryCutoffTime: string;
  /** Bearer token for the operator endpoints (carrier feed); unset turns them off. */
  operatorToken: string | undefined;
  /** SMTP server for outgoing mail; unset keeps mail in the outbox table, shown at /_dev/mail. */
  smtpUrl: string | undefined;
  mailFrom: string;
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
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_SECRET) {
    throw new ConfigError('Invalid configuration: OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    trustProxy: e.TRUST_PROXY,
    titlesFile: e.TITLES_FILE,
    maintenance: e.MAINTENANCE,
    identityProviderName: e.IDENTITY_PROVIDER_NAME,
    oidcIssuer: e.OIDC_ISSUER,
    oidcClientId: e.OIDC_CLIENT_ID,
    oidcClientSecret: e.OIDC_CLIENT_SECRET,
    // Demo users with a published password belong on a developer's machine, not on a public https site.
    seedDemoData: e.SEED_DEMO_DATA ?? (e.DATABASE_URL === undefined && !e.PUBLIC_URL?.startsWith('https://')),
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    deliveryCutoffTime: e.DELIVERY_CUTOFF_TIME,
    operatorToken: e.OPERATOR_TOKEN,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
  };
}

/** A config for tests and tools: defaults, then the given overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', webDist: undefined, seedDemoData: false, ...overrides };
}

/** Where the embedded identity provider lives: /idp under PUBLIC_URL, or under localhost:PORT. */
export function embeddedIssuerUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  const base = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  return `${base}/idp`;
}

/** The issuer the portal logs in through: OIDC_ISSUER, or the embedded provider. */
export function issuerUrl(config: Pick<Config, 'oidcIssuer' | 'publicUrl' | 'port'>): string {
  return config.oidcIssuer ?? embeddedIssuerUrl(config);
}
