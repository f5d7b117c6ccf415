/**
 * What the four APIs share: the merchant serial number, amounts, the common headers and the
 * Idempotency-Key rules. Names are the OpenAPI components'; each schema and its type share the
 * name, so `Amount.parse(x)` and `x: Amount` both read like the spec.
 */
import { z } from 'zod';

/** ePayment `MSN` (also the access token's and Recurring's `Merchant-Serial-Number`). */
export const Msn = z.string().regex(/^[0-9]{4,6}$/);
export type Msn = z.infer<typeof Msn>;

/** ePayment `Currency`. The text says only NOK works yet; the enum already has DKK and EUR. */
export const Currency = z.enum(['NOK', 'DKK', 'EUR']);
export type Currency = z.infer<typeof Currency>;

/** ePayment `Amount`: minor units (10.00 NOK = 1000), int64 0..65,000,000. */
export const Amount = z.object({
  currency: Currency,
  value: z.int().min(0).max(65_000_000),
});
export type Amount = z.infer<typeof Amount>;

/** RFC 3339 date-time as the specs' `format: date-time` (an offset or `Z` is required). */
export const DateTime = z.iso.datetime({ offset: true });

export const HEADER = {
  authorization: 'Authorization',
  subscriptionKey: 'Ocp-Apim-Subscription-Key',
  merchantSerialNumber: 'Merchant-Serial-Number',
  idempotencyKey: 'Idempotency-Key',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  systemName: 'Vipps-System-Name',
  systemVersion: 'Vipps-System-Version',
  systemPluginName: 'Vipps-System-Plugin-Name',
  systemPluginVersion: 'Vipps-System-Plugin-Version',
} as const;

/** The four `Vipps-System-*` headers: optional everywhere, `maxLength: 30` in every spec. */
export const SYSTEM_HEADERS = [HEADER.systemName, HEADER.systemVersion, HEADER.systemPluginName, HEADER.systemPluginVersion] as const;
export const SYSTEM_HEADER_MAX_LENGTH = 30;

export interface IdempotencyKeyRule {
  readonly required: boolean;
  readonly maxLength: number;
  /** Characters the key must not contain (Recurring: "Key must not contain '#', '?', '/' or '\\'"). */
  readonly forbiddenCharacters: string;
}

/** ePayment: `required: true`, string, `maxLength: 50`. */
export const EPAYMENT_IDEMPOTENCY_KEY: IdempotencyKeyRule = { required: true, maxLength: 50, forbiddenCharacters: '' };

/** Recurring v3: "Key size can be between 1 to 40 characters. Key must not contain '#', '?', '/' or '\\'". */
export const RECURRING_IDEMPOTENCY_KEY: IdempotencyKeyRule = { required: true, maxLength: 40, forbiddenCharacters: '#?/\\' };

/** Why a key breaks its rule, or null when it keeps it. */
export function idempotencyKeyProblem(key: string, rule: IdempotencyKeyRule): string | null {
  if (key.length === 0) return 'must not be empty';
  if (key.length > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
  for (const character of rule.forbiddenCharacters) {
    if (key.includes(character)) return `must not contain ${JSON.stringify(character)}`;
  }
  return null;
}

/** zod issues as `path: message` lines, the form every error of this package names a field in. */
export function describeIssues(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
    return `${path === '' ? '(root)' : path}: ${issue.message}`;
  });
}
