import { z } from 'zod';

/**
 * The configuration of consent, analytics and monitoring in the browser (issue 9). Every
 * third party is off until configured: the demo loads no vendor script and sends nothing away.
 * Parsed with the rest of the configuration; modules/consent serves it to the browser.
 */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().or(z.literal('').transform(() => undefined));
const positiveId = z.coerce.number().int().positive();

const settingsSchema = z.object({
  /** Off where nobody should be asked (automated test environments); the footer button still opens the dialog. */
  CONSENT_PROMPT: z
    .enum(['on', 'off', 'true', 'false', '1', '0', ''])
    .default('on')
    .transform((value) => value !== 'off' && value !== 'false' && value !== '0'),
  /** SPEC §9: the consent vendor's (Sourcepoint) property and group ids come from configuration; with the account they switch the vendor on. */
  CONSENT_ACCOUNT_ID: optional(positiveId),
  CONSENT_PROPERTY_ID: optional(positiveId),
  CONSENT_GROUP_ID: optional(positiveId),
  CONSENT_SCRIPT_URL: z.url().default('https://cdn.privacy-mgmt.com/unified/wrapperMessagingWithoutDetection.js'),
  CONSENT_BASE_ENDPOINT: z.url().default('https://cdn.privacy-mgmt.com'),
  /** Where the Pulse-style analytics provider beacons events; unset sends none. */
  ANALYTICS_COLLECTOR_URL: optional(z.url()),
  /** Browser RUM (Datadog): both needed to switch it on. */
  RUM_CLIENT_TOKEN: optional(z.string().min(1)),
  RUM_APPLICATION_ID: optional(z.string().min(1)),
  /** The my-page name the RUM service is named after: `{name}-rum`. */
  RUM_SERVICE_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes, e.g. minside')
    .default('minside'),
});

export interface ClientSettings {
  consentPrompt: boolean;
  sourcepoint: { accountId: number; propertyId: number; groupId: number; scriptUrl: string; baseEndpoint: string } | null;
  analyticsCollectorUrl: string | undefined;
  rum: { clientToken: string; applicationId: string; serviceName: string } | null;
}

export type SettingsResult = { ok: true; settings: ClientSettings } | { ok: false; problems: string[] };

export function parseClientSettings(env: NodeJS.ProcessEnv): SettingsResult {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  const e = parsed.data;
  const sourcepoint =
    e.CONSENT_ACCOUNT_ID && e.CONSENT_PROPERTY_ID && e.CONSENT_GROUP_ID
      ? { accountId: e.CONSENT_ACCOUNT_ID, propertyId: e.CONSENT_PROPERTY_ID, groupId: e.CONSENT_GROUP_ID, scriptUrl: e.CONSENT_SCRIPT_URL, baseEndpoint: e.CONSENT_BASE_ENDPOINT }
      : null;
  const rum = e.RUM_CLIENT_TOKEN && e.RUM_APPLICATION_ID ? { clientToken: e.RUM_CLIENT_TOKEN, applicationId: e.RUM_APPLICATION_ID, serviceName: e.RUM_SERVICE_NAME } : null;
  return { ok: true, settings: { consentPrompt: e.CONSENT_PROMPT, sourcepoint, analyticsCollectorUrl: e.ANALYTICS_COLLECTOR_URL, rum } };
}
