/**
 * @minside/vipps/simulator: a simulator of the same published contract, for development and
 * tests. It speaks the provider's paths, headers and Problem shapes, checks requests against the
 * operations table, runs the ePayment and Recurring state machines by an injected clock, sends
 * signed webhooks, and serves a landing page where a person (or a test) approves or rejects.
 */
export { createVippsSimulator } from './simulator.ts';
export type { FaultKind, FaultOptions, SimulatorRequest, VippsSimulator, VippsSimulatorOptions } from './simulator.ts';
export type { RestoredAgreement } from './recurring.ts';
export type { WebhookDelivery, WebhookKnobs } from './webhooks.ts';
