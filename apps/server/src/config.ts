import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { claimProfiles, type ClaimProfile } from './config/claim-profiles.ts';
import { defaultStudentEmailDomains } from '@minside/domain';
import { parseClientSettings, type ClientSettings } from './config/client-settings.ts';
import { parseScheduleOverrides } from './config/schedule.ts';
import { dkimConfigFrom, mailboxOf, type MailDkimConfig } from './config/mail-sender.ts';

/**
 * Environment → typed configuration. Every embedded part is replaced by configuration,
 * never by code edits (ARCHITECTURE "Shape"). Fails fast naming the variable.
 */
const onOff = z.enum(['on', 'off', 'true', 'false', '1', '0', '']).transform((value) => value === 'on' || value === 'true' || value === '1');

const scopesSetting = z
  .string()
  .regex(/^[\w:./-]+( [\w:./-]+)*$/, 'must be scopes separated by single spaces, e.g. "openid email profile"')
  .refine((value) => value.split(' ').includes('openid'), 'must include openid')
  .optional()
  .or(z.literal('').transform(() => undefined));
const loginKey = z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'must be lower-case letters, digits and hyphens, e.g. vipps');

const envSchema = z.object({
  /** `production` (the Dockerfile and deploy/kubernetes set it) makes this a production process: see `isProduction`. */
  NODE_ENV: z.string().optional(),
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
      return trimmed
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    }),
  PUBLIC_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TITLES_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAINTENANCE: onOff.default(false),
  /** Scheduled jobs in this process (docs/decisions/017); every instance may run them, each slot runs once. */
  JOBS: onOff.default(true),
  JOBS_SCHEDULE_OVERRIDES: z
    .string()
    .optional()
    .superRefine((value, context) => {
      try {
        parseScheduleOverrides(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `${(error as Error).message}; expected e.g. mail-outbox=30s,billing-renewals=daily@04:00` });
      }
    }),
  IDENTITY_PROVIDER_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9]*$/, 'must be lower-case letters and digits, e.g. spid')
    .default('spid'),
  OIDC_ISSUER: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC_CLIENT_ID: z.string().min(1).default('minside'),
  OIDC_CLIENT_SECRET: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Space-separated scopes to ask the issuer for; the claim profile's defaults when empty (issue 24). */
  OIDC_SCOPES: scopesSetting,
  /** How the issuer names its claims: standard OpenID Connect (oidc) or Vipps Login (vipps). */
  OIDC_CLAIMS: z.enum(claimProfiles).default('oidc'),
  /** The issuer as the profile page names it: "fra Vipps", "fra {label}". */
  OIDC_ISSUER_LABEL: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The primary issuer's key in the user_login table (issue 24): keep it when the issuer moves. */
  OIDC_KEY: loginKey.default('account'),
  /**
   * A second issuer beside the first (issue 24): "Logg inn med Vipps" on the portal's login page.
   * OIDC2_ISSUER is a real one (Vipps Login: https://api.vipps.no/access-management-1.0/access/);
   * VIPPS_LOGIN=simulator runs the Vipps Login simulator in this process instead (development only).
   */
  OIDC2_ISSUER: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC2_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC2_CLIENT_SECRET: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC2_SCOPES: scopesSetting,
  // No default: a second issuer taken for Vipps by mistake would have its phone numbers and birthdates count as verified.
  OIDC2_CLAIMS: z
    .enum(claimProfiles)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC2_ISSUER_LABEL: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC2_KEY: loginKey.optional(),
  VIPPS_LOGIN: z
    .enum(['simulator'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SEED_DEMO_DATA: onOff.optional(),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo1234'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Terms, policies and FAQ as Markdown per title group (docs/decisions/015). */
  CONTENT_DIR: z.string().min(1).default('content'),
  OPERATOR_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The publisher's customer unit id at Nets: data transmitter of the AvtaleGiro claim files, recipient of the bank's files (issue 21). */
  BANK_CUSTOMER_UNIT_ID: z
    .string()
    .regex(/^\d{8}$/, 'must be the 8-digit customer unit id Nets gave the publisher')
    .optional(),
  /** Where bank files are archived, quarantined and written (issue 21). Default: DATA_DIR/bank. */
  BANK_FILES_DIR: z.string().min(1).optional(),
  /** Where EHF invoices are written for the access point to send (issue 23). Default: DATA_DIR/ehf/outbox. */
  EHF_OUTBOX_DIR: z.string().min(1).optional(),
  /** Nets' SFTP server for the bank files (issue 21); unset moves them through BANK_FILES_DIR/inbox and outbox only. */
  BANK_SFTP_URL: z
    .string()
    .superRefine((value, context) => {
      const problem = sftpUrlProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BANK_SFTP_PRIVATE_KEY_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BANK_SFTP_HOST_KEY_SHA256: z
    .string()
    .regex(/^(SHA256:)?[A-Za-z0-9+/]{43}=?$/, "must be the server's SHA-256 host key fingerprint as `ssh-keygen -lf` prints it, e.g. SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s")
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BANK_SFTP_INBOX: z.string().min(1).default('/outbound'),
  BANK_SFTP_OUTBOX: z.string().min(1).default('/inbound'),
  DELIVERY_CUTOFF_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM, e.g. 12:00')
    .default('12:00'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z
    .string()
    .min(3)
    .default('Min Side <minside@localhost>')
    .refine((value) => {
      try {
        mailboxOf(value);
        return true;
      } catch {
        return false;
      }
    }, 'must be an address, bare or with a display name: minside@adressa.no or Min Side <minside@adressa.no>'),
  /** DKIM signing (ADR 010 "Sender"): all of domain, selector and one of the key variables, or none. */
  MAIL_DKIM_DOMAIN: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_DKIM_SELECTOR: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a DNS label, e.g. minside2026 (the key is published at {selector}._domainkey.{domain})')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_DKIM_PRIVATE_KEY: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_DKIM_PRIVATE_KEY_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * `test` is the built-in provider (fake money, /_dev/pay, refused in production); `vipps` is Vipps
   * MobilePay (ePayment for Vipps and card) at VIPPS_BASE_URL. Unset outside production: the Vipps
   * MobilePay simulator embedded in the process (ADR 025 "Development default").
   */
  PAYMENT_PROVIDER: z
    .enum(['test', 'vipps'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Vipps MobilePay: https://api.vipps.no (production), https://apitest.vipps.no (the test environment), or a simulator of the same contract. */
  VIPPS_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.vipps.no' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  VIPPS_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  VIPPS_CLIENT_SECRET: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  VIPPS_SUBSCRIPTION_KEY: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  VIPPS_MERCHANT_SERIAL_NUMBER: z
    .string()
    .regex(/^\d{4,6}$/, 'must be the 4–6 digit merchant serial number from the Vipps MobilePay portal')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The embedded Vipps MobilePay simulator's port on 127.0.0.1 (PAYMENT_PROVIDER unset, outside production); unset: a free one. */
  VIPPS_SIMULATOR_PORT: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(65_535).optional()),
  PAYLINK_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  STUDENT_EMAIL_DOMAINS: z
    .string()
    .refine(
      (value) => value.trim() === '' || value.split(',').every((domain) => /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(domain.trim())),
      'must be a comma-separated list of domains, e.g. stud.ntnu.no,student.uib.no,*.test',
    )
    .optional(),
  FAMILY_MAX_MEMBERS: z.coerce.number().int().min(1).max(20).default(4),
  /** Sessions, login tokens, the login throttle and rate limits in Redis (docs/decisions/018); unset keeps them in the database. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits or :_.-, e.g. minside:')
    .default('minside:'),
});

/**
 * Nets' SFTP server (issue 21). The folder names are Nets' own, from their side: their
 * `/outbound` holds the files they send us (our inbox), their `/inbound` takes the files we send
 * them (our outbox).
 */
export interface BankSftpConfig {
  host: string;
  port: number;
  username: string;
  /** Path of the private key (OpenSSH or PEM, unencrypted) the portal logs in with. */
  privateKeyFile: string;
  /** The server's host key fingerprint, base64 of its SHA-256 without `SHA256:` or padding; required in production. */
  hostKeySha256: string | undefined;
  /** Remote folder the bank's files are downloaded from. */
  inbox: string;
  /** Remote folder the claim files are uploaded to. */
  outbox: string;
}

export interface Config {
  port: number;
  host: string;
  /** Where the embedded parts keep their files (PGlite data, keys). */
  dataDir: string;
  /** PostgreSQL when set; PGlite under dataDir otherwise. */
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  /**
   * NODE_ENV=production or an https PUBLIC_URL: no test payment provider, no /_dev page, no
   * demo users by default (issue 20). `buildApp` also treats any https PUBLIC_URL as production.
   */
  production: boolean;
  /**
   * Which proxies' X-Forwarded-* headers to believe (client IP, protocol, host): off by
   * default, a hop count, or addresses/CIDRs. Believing every hop would let a client forge
   * its IP past the login throttle.
   */
  trustProxy: boolean | number | string[];
  titlesFile: string | undefined;
  maintenance: boolean;
  /** Run the job schedule in this process (bin/server.ts starts it); `npm run admin -- run-job` works either way. */
  jobs: boolean;
  /** JOBS_SCHEDULE_OVERRIDES as given: `name=schedule,…` (jobs/schedule.ts), checked against the job names at start. */
  jobScheduleOverrides: string | undefined;
  identityProviderName: string;
  /** An external OIDC issuer; undefined runs the embedded provider at /idp. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  /** Required with an external issuer; the embedded provider generates and keeps its own. */
  oidcClientSecret: string | undefined;
  /** OIDC_SCOPES; undefined asks for the claim profile's default scopes. */
  oidcScopes: string | undefined;
  oidcClaims: ClaimProfile;
  /** Where the profile says a field came from: "fra Vipps" (issue 24). */
  oidcIssuerLabel: string;
  /** OIDC_KEY: the primary issuer's key in user_login. */
  oidcKey: string;
  /** The second issuer (issue 24), or none. */
  secondIssuer: SecondIssuerConfig | undefined;
  /** Seed the demo subscribers at start. Default: on for the embedded database, off for DATABASE_URL. */
  seedDemoData: boolean;
  demoPassword: string;
  logLevel: string;
  /** The built SPA to serve; undefined serves none (API-only, as in server tests). */
  webDist: string | undefined;
  /** Markdown content: `{kind}/{group}/{page}.md`, relative to the working directory unless absolute. */
  contentDir: string;
  /** SPEC §5: delivery changes must be placed before this time (HH:MM, Europe/Oslo) the day before the first affected issue. */
  deliveryCutoffTime: string;
  /**
   * The publisher's customer unit id at Nets (8 digits): the data transmitter of the AvtaleGiro
   * claim files. Unset: the illustrative 71000001, and production refuses to send claims.
   */
  bankCustomerUnitId: string | undefined;
  /** Bank files: `archive/` (every file in and out, by SHA-256), `quarantine/` (refused files and their error), `outbox/` (claims to send). */
  bankFilesDir: string;
  /**
   * EHF documents (issue 23) are written here as {number}.xml, for the PEPPOL access point the
   * publisher contracts with to pick up (its agent, or SFTP to it): sending is configuration, not code.
   */
  ehfOutboxDir: string;
  /** Nets' SFTP server; undefined keeps the bank files in BANK_FILES_DIR's inbox/ and outbox/ (a person or another tool carries them). */
  bankSftp: BankSftpConfig | undefined;
  /** Bearer token for the operator endpoints (carrier feed); unset turns them off. */
  operatorToken: string | undefined;
  /** SMTP server for outgoing mail; unset keeps mail in the outbox table, shown at /_dev/mail. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: its address is the From address of every message; the display name is the title's (ADR 010 "Sender"). */
  mailFrom: string;
  /** MAIL_DKIM_*: sign outgoing mail with DKIM; undefined leaves it to the SMTP relay. */
  mailDkim?: MailDkimConfig | undefined;
  /**
   * Which payment provider charges (integrations/payment); `test` is the embedded test provider
   * with its page at /_dev/pay, never in production. Undefined only where loadConfig does not
   * serve (the migration entry) or a test builds an https app: every payment then answers 503.
   */
  paymentProvider: 'test' | 'vipps' | undefined;
  /**
   * With `vipps`: Vipps MobilePay's API and the merchant's keys (PAYMENT_PROVIDER=vipps, from the
   * secret store), or, outside production with PAYMENT_PROVIDER unset, the simulator embedded in
   * the process (`npm start`'s default).
   */
  vipps: VippsConfig | EmbeddedVippsSimulatorConfig | undefined;
  /** HMAC key of pay-links; unset generates one and keeps it in `billing_secret`. */
  paylinkSecret: string | undefined;
  /** Student e-mail domains accepted for student verification; `*.test` style entries match a whole ending. */
  studentEmailDomains: string[];
  /** SPEC §9: how many household members a subscription may share with, unless the subscription sets its own maximum. */
  familyMaxMembers: number;
  /** Redis for state shared by instances (sessions, login tokens, throttles); undefined keeps it in the database. */
  redisUrl: string | undefined;
  /** Put before every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Consent vendor, analytics collector and browser RUM (modules/consent/settings.ts); all off when unset. */
  clientSettings: ClientSettings;
}

export interface VippsConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  merchantSerialNumber: string;
}

/**
 * The Vipps MobilePay simulator (packages/vipps) started in this process on 127.0.0.1, with keys
 * made up at each start (integrations/payment/embedded-vipps-simulator.ts). Development only:
 * loadConfig never makes it in production, and the payment provider refuses it with an https PUBLIC_URL.
 */
export interface EmbeddedVippsSimulatorConfig {
  embeddedSimulator: true;
  /** VIPPS_SIMULATOR_PORT; undefined takes a free port. */
  port: number | undefined;
  /** How often it takes the Recurring charges that are due (Vipps MobilePay does on the due day); default a minute, 0 never (tests call processCharges when their clock says so). */
  chargesEveryMs?: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The one line a production process stops with while it would run the test payment provider, or
 * none: production takes money through Vipps MobilePay only; the line says what to set.
 */
export const noRealPaymentProviderMessage =
  "Invalid configuration: PAYMENT_PROVIDER: production (NODE_ENV=production or an https PUBLIC_URL) takes money through a real payment provider: set PAYMENT_PROVIDER=vipps with VIPPS_BASE_URL=https://api.vipps.no and the merchant's VIPPS_CLIENT_ID, VIPPS_CLIENT_SECRET, VIPPS_SUBSCRIPTION_KEY and VIPPS_MERCHANT_SERIAL_NUMBER. " +
  'The built-in test provider marks invoices paid without moving any money, so it is refused here. ' +
  'For a local trial, set NODE_ENV=development and an http PUBLIC_URL (or none).';

/** NODE_ENV=production or an https PUBLIC_URL (issue 20): the one definition of "production". */
function isProduction(env: { NODE_ENV?: string | undefined; PUBLIC_URL?: string | undefined }): boolean {
  return env.NODE_ENV === 'production' || (env.PUBLIC_URL?.startsWith('https://') ?? false);
}

export interface LoadConfigOptions {
  /**
   * `serve` (the default) is every process that builds the app; `migrate` only applies SQL
   * migrations, moves no money and so starts in production without a payment provider.
   */
  purpose?: 'serve' | 'migrate';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const client = parseClientSettings(env);
  if (!client.ok) throw new ConfigError(`Invalid configuration: ${client.problems.join('; ')}`);
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_SECRET) {
    throw new ConfigError('Invalid configuration: OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set');
  }
  const production = isProduction(e);
  const bankSftp = bankSftpConfig(e, production);
  const dkim = dkimConfigFrom(
    { domain: e.MAIL_DKIM_DOMAIN, selector: e.MAIL_DKIM_SELECTOR, privateKey: e.MAIL_DKIM_PRIVATE_KEY, privateKeyFile: e.MAIL_DKIM_PRIVATE_KEY_FILE },
    mailboxOf(e.MAIL_FROM).address,
    (file) => readFileSync(file, 'utf8'),
  );
  if (!dkim.ok) throw new ConfigError(`Invalid configuration: ${dkim.problem}`);
  // The test provider approves whatever its buttons say: never in production, whatever the
  // purpose. A serving process in production needs the real provider (Vipps MobilePay).
  if (production && e.PAYMENT_PROVIDER === 'test') throw new ConfigError(noRealPaymentProviderMessage);
  if (production && (options.purpose ?? 'serve') === 'serve' && e.PAYMENT_PROVIDER === undefined) throw new ConfigError(noRealPaymentProviderMessage);
  // Outside production, unset means Vipps MobilePay's adapter against the simulator in this process
  // (ADR 025 "Development default"); production has refused an unset provider above.
  const embeddedVipps = !production && e.PAYMENT_PROVIDER === undefined;
  if (embeddedVipps && e.VIPPS_BASE_URL) {
    throw new ConfigError(
      'Invalid configuration: PAYMENT_PROVIDER: VIPPS_BASE_URL is set but PAYMENT_PROVIDER is not: set PAYMENT_PROVIDER=vipps to pay through it, or unset VIPPS_BASE_URL for the embedded Vipps MobilePay simulator',
    );
  }
  const paymentProvider = e.PAYMENT_PROVIDER ?? (production ? undefined : 'vipps');
  const vipps: Config['vipps'] = embeddedVipps ? { embeddedSimulator: true, port: e.VIPPS_SIMULATOR_PORT } : paymentProvider === 'vipps' ? vippsConfig(e, production) : undefined;
  const secondIssuer = secondIssuerConfig(e, production);
  if (secondIssuer && secondIssuer.key === e.OIDC_KEY) throw new ConfigError(`Invalid configuration: OIDC2_KEY: "${secondIssuer.key}" is the first issuer's key (OIDC_KEY) too`);
  // Demo users with a published password belong on a developer's machine, not on a public https site.
  const seedDemoData = e.SEED_DEMO_DATA ?? (e.DATABASE_URL === undefined && !production);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    production,
    trustProxy: e.TRUST_PROXY,
    titlesFile: e.TITLES_FILE,
    maintenance: e.MAINTENANCE,
    jobs: e.JOBS,
    jobScheduleOverrides: e.JOBS_SCHEDULE_OVERRIDES,
    identityProviderName: e.IDENTITY_PROVIDER_NAME,
    oidcIssuer: e.OIDC_ISSUER,
    oidcClientId: e.OIDC_CLIENT_ID,
    oidcClientSecret: e.OIDC_CLIENT_SECRET,
    oidcScopes: e.OIDC_SCOPES,
    oidcClaims: e.OIDC_CLAIMS,
    oidcIssuerLabel: e.OIDC_ISSUER_LABEL ?? (e.OIDC_CLAIMS === 'vipps' ? 'Vipps' : 'kontoen din'),
    oidcKey: e.OIDC_KEY,
    secondIssuer,
    seedDemoData,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    contentDir: e.CONTENT_DIR,
    deliveryCutoffTime: e.DELIVERY_CUTOFF_TIME,
    operatorToken: e.OPERATOR_TOKEN,
    bankCustomerUnitId: e.BANK_CUSTOMER_UNIT_ID,
    bankFilesDir: e.BANK_FILES_DIR ?? `${e.DATA_DIR.replace(/\/+$/, '')}/bank`,
    ehfOutboxDir: e.EHF_OUTBOX_DIR ?? `${e.DATA_DIR.replace(/\/+$/, '')}/ehf/outbox`,
    bankSftp,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailDkim: dkim.dkim,
    paymentProvider,
    vipps,
    paylinkSecret: e.PAYLINK_SECRET,
    studentEmailDomains: studentDomains(e.STUDENT_EMAIL_DOMAINS, seedDemoData),
    familyMaxMembers: e.FAMILY_MAX_MEMBERS,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    clientSettings: client.settings,
  };
}

/** What is wrong with a BANK_SFTP_URL, or undefined: `sftp://user@host[:port]/`, no password, no folder. */
function sftpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an sftp://user@host:22/ URL';
  }
  if (url.protocol !== 'sftp:' || !url.hostname) return 'must be an sftp://user@host:22/ URL';
  if (!url.username) return 'must name the user, e.g. sftp://user@host:22/';
  if (url.password) return 'must not contain a password: the portal logs in with BANK_SFTP_PRIVATE_KEY_FILE';
  if (url.pathname !== '' && url.pathname !== '/') return 'must not name a folder: set BANK_SFTP_INBOX and BANK_SFTP_OUTBOX';
  if (url.search || url.hash) return 'must not have a query or fragment';
  return undefined;
}

function vippsConfig(e: z.infer<typeof envSchema>, production: boolean): VippsConfig {
  const missing = (['VIPPS_BASE_URL', 'VIPPS_CLIENT_ID', 'VIPPS_CLIENT_SECRET', 'VIPPS_SUBSCRIPTION_KEY', 'VIPPS_MERCHANT_SERIAL_NUMBER'] as const).filter((name) => !e[name]);
  if (missing.length > 0)
    throw new ConfigError(
      `Invalid configuration: ${missing.join(', ')}: required when PAYMENT_PROVIDER=vipps (the keys are in the Vipps MobilePay portal, portal.vippsmobilepay.com, under "For utviklere")`,
    );
  const baseUrl = (e.VIPPS_BASE_URL as string).replace(/\/+$/, '');
  // Production pays through Vipps MobilePay itself: exactly its production origin (a denylist of
  // simulators and the test environment would let `apitest.vipps.no.`, user info or an internal host through).
  const parsed = new URL(baseUrl);
  if (production && (parsed.origin !== 'https://api.vipps.no' || parsed.username !== '' || parsed.password !== '' || parsed.pathname !== '/' || parsed.search !== '')) {
    throw new ConfigError(
      `Invalid configuration: VIPPS_BASE_URL: production pays through https://api.vipps.no, not ${parsed.protocol}//${parsed.host}${parsed.pathname} (a simulator or the test environment moves no money)`,
    );
  }
  return {
    baseUrl,
    clientId: e.VIPPS_CLIENT_ID as string,
    clientSecret: e.VIPPS_CLIENT_SECRET as string,
    subscriptionKey: e.VIPPS_SUBSCRIPTION_KEY as string,
    merchantSerialNumber: e.VIPPS_MERCHANT_SERIAL_NUMBER as string,
  };
}

function bankSftpConfig(e: z.infer<typeof envSchema>, production: boolean): BankSftpConfig | undefined {
  if (!e.BANK_SFTP_URL) return undefined;
  if (!e.BANK_SFTP_PRIVATE_KEY_FILE) throw new ConfigError('Invalid configuration: BANK_SFTP_PRIVATE_KEY_FILE: required when BANK_SFTP_URL is set');
  // An unverified server could hand us forged payment files and take the claim files: never in production.
  if (production && !e.BANK_SFTP_HOST_KEY_SHA256) {
    throw new ConfigError("Invalid configuration: BANK_SFTP_HOST_KEY_SHA256: required in production when BANK_SFTP_URL is set (the bank's server is never trusted unverified)");
  }
  const url = new URL(e.BANK_SFTP_URL);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 22,
    username: decodeURIComponent(url.username),
    privateKeyFile: e.BANK_SFTP_PRIVATE_KEY_FILE,
    hostKeySha256: e.BANK_SFTP_HOST_KEY_SHA256?.replace(/^SHA256:/, '').replace(/=$/, ''),
    inbox: e.BANK_SFTP_INBOX,
    outbox: e.BANK_SFTP_OUTBOX,
  };
}

/**
 * STUDENT_EMAIL_DOMAINS, or the institutions of packages/domain; with the demo data the
 * reserved `.test` domain is added, so the demo students (whose mail only reaches /_dev/mail)
 * can verify. `.test` never resolves on the internet, so it opens nothing in production.
 */
function studentDomains(value: string | undefined, demo: boolean): string[] {
  const listed = (value ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  if (listed.length > 0) return listed;
  return [...defaultStudentEmailDomains, ...(demo ? ['*.test'] : [])];
}

/**
 * The second issuer (issue 24): a real one (OIDC2_*), or the Vipps Login simulator in this process
 * (VIPPS_LOGIN=simulator, as `npm start`; its URL is known only once it listens). A simulator
 * verifies no one, so production refuses it.
 */
type SecondIssuerConfig =
  | { kind: 'external'; key: string; issuer: string; clientId: string; clientSecret: string; scopes: string | undefined; claims: ClaimProfile; label: string }
  | { kind: 'simulator'; key: string; scopes: string | undefined; claims: 'vipps'; label: string };

function secondIssuerConfig(e: z.infer<typeof envSchema>, production: boolean): SecondIssuerConfig | undefined {
  // The simulator is Vipps Login's; a real second issuer says which it is (OIDC2_CLAIMS, checked below).
  const claims = e.VIPPS_LOGIN === 'simulator' ? 'vipps' : e.OIDC2_CLAIMS;
  const key = e.OIDC2_KEY ?? (claims === 'vipps' ? 'vipps' : 'second');
  const label = e.OIDC2_ISSUER_LABEL ?? (claims === 'vipps' ? 'Vipps' : 'den andre kontoen din');
  if (e.VIPPS_LOGIN === 'simulator') {
    if (production) throw new ConfigError('Invalid configuration: VIPPS_LOGIN: the Vipps Login simulator verifies no one and is for development only; set OIDC2_ISSUER to Vipps Login instead');
    if (e.OIDC2_ISSUER) throw new ConfigError('Invalid configuration: VIPPS_LOGIN: choose either the simulator or OIDC2_ISSUER, not both');
    return { kind: 'simulator', key, scopes: e.OIDC2_SCOPES, claims: 'vipps', label };
  }
  if (!e.OIDC2_ISSUER) return undefined;
  if (!e.OIDC2_CLIENT_ID || !e.OIDC2_CLIENT_SECRET) throw new ConfigError('Invalid configuration: OIDC2_CLIENT_ID and OIDC2_CLIENT_SECRET: required when OIDC2_ISSUER is set');
  if (!claims) {
    throw new ConfigError(
      'Invalid configuration: OIDC2_CLAIMS: required when OIDC2_ISSUER is set: vipps for Vipps Login (its phone numbers and birthdates count as verified), oidc for any other issuer. An installation that ran without it had the issuer key "vipps" and the label "Vipps": with oidc, also set OIDC2_KEY=vipps (and OIDC2_ISSUER_LABEL) to keep the logins already linked',
    );
  }
  return { kind: 'external', key, issuer: e.OIDC2_ISSUER, clientId: e.OIDC2_CLIENT_ID, clientSecret: e.OIDC2_CLIENT_SECRET, scopes: e.OIDC2_SCOPES, claims, label };
}

/** A config for tests and tools: defaults, then the given overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Bank files a test writes (claims, archived uploads) go to the temporary folder, not the repository's ./data.
  // As `npm start`: the real Vipps MobilePay adapter against the simulator embedded in the app (tests answer for the payer with
  // app.vippsSimulator); due charges are taken when a test says so, never by the wall clock in the middle of one.
  return {
    ...loadConfig({}),
    vipps: { embeddedSimulator: true, port: undefined, chargesEveryMs: 0 },
    logLevel: 'silent',
    webDist: undefined,
    seedDemoData: false,
    bankFilesDir: path.join(tmpdir(), 'minside-test-bank'),
    ehfOutboxDir: path.join(tmpdir(), `minside-test-ehf-${process.pid}`),
    ...overrides,
  };
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
