/**
 * The published Vipps MobilePay contract as zod schemas: access token, ePayment v1, Recurring v3,
 * Webhooks v1, the callback bodies, and the operations table. Pinned documents: `sources.ts`.
 */
export * from './sources.ts';
export * from './common.ts';
export * from './access-token.ts';
export * from './epayment.ts';
export * from './recurring.ts';
export * from './webhooks.ts';
export * from './operations.ts';
