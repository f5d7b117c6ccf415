/**
 * Access token API 2.0.0 (`vippsas/access-token-api` @ 2b36ec5): `POST /accesstoken/get`, a POST
 * without a body, credentials in the `client_id` / `client_secret` headers.
 */
import { z } from 'zod';

/**
 * `AuthorizationTokenResponse`: all seven fields required and all `type: string`, the numbers too
 * (the README's literal answer quotes them: `"expires_in": "86398"`), although the schema's
 * `example:` values are bare numbers. `expires_on` and `not_before` are epoch seconds.
 */
export const AuthorizationTokenResponse = z.object({
  token_type: z.string(),
  expires_in: z.string(),
  ext_expires_in: z.string(),
  expires_on: z.string(),
  not_before: z.string(),
  resource: z.string(),
  access_token: z.string(),
});
export type AuthorizationTokenResponse = z.infer<typeof AuthorizationTokenResponse>;

/**
 * The token endpoint's 4xx/5xx bodies have no schema in the spec. This is the SDK's hand-written
 * `AccessTokenError` (Azure AD's shape), all optional, so that nothing here depends on it.
 */
export const AccessTokenError = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  error_codes: z.array(z.int()).optional(),
  timestamp: z.string().optional(),
  trace_id: z.string().optional(),
  correlation_id: z.string().optional(),
  error_uri: z.string().optional(),
});
export type AccessTokenError = z.infer<typeof AccessTokenError>;
