/**
 * @minside/vipps: Vipps MobilePay as its published API documents describe it — the contract as zod
 * schemas with the operations table, webhook request signing, and a thin typed client. The
 * simulator of the same contract is `@minside/vipps/simulator`. See README.md.
 */
export * from './contract/index.ts';
export { signWebhookRequest, verifyWebhookRequest } from './signature.ts';
export type { SignWebhookRequestInput, VerifyWebhookRequestInput, WebhookBody, WebhookVerification, WebhookVerificationFailure } from './signature.ts';
export { createVippsClient } from './client.ts';
export type { VippsClient, VippsClientConfig } from './client.ts';
export { VippsApiError, VippsContractError, VippsUnavailableError } from './errors.ts';
