/**
 * The operations table: one entry per operation of the pinned documents, keyed by the spec's
 * operationId. The client sends from it, the simulator routes and checks by it, and the contract
 * test holds both to it, so the three cannot drift apart.
 */
import { z } from 'zod';
import { AccessTokenError, AuthorizationTokenResponse } from './access-token.ts';
import { EPAYMENT_IDEMPOTENCY_KEY, RECURRING_IDEMPOTENCY_KEY } from './common.ts';
import type { IdempotencyKeyRule } from './common.ts';
import {
  CaptureModificationRequest,
  CreatePaymentRequest,
  CreatePaymentResponse,
  EpaymentProblem,
  ForceApprove,
  GetPaymentEventLogResponse,
  GetPaymentResponse,
  ModificationResponse,
  Reference,
  RefundModificationRequest,
} from './epayment.ts';
import {
  Agreement,
  AgreementList,
  CaptureChargeRequest,
  Charge,
  ChargeList,
  CreateChargeRequest,
  CreateChargeResponse,
  DraftAgreementRequest,
  DraftAgreementResponse,
  ForceAcceptAgreement,
  PatchAgreementRequest,
  RecurringProblem,
  RefundChargeRequest,
} from './recurring.ts';
import { RegisterWebhookRequest, RegisterWebhookResponse, WebhookList, WebhooksProblem } from './webhooks.ts';

export type VippsApi = 'access-token' | 'epayment' | 'recurring' | 'webhooks';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Operation<Request extends z.ZodType | null = z.ZodType | null, Answer extends z.ZodType | null = z.ZodType | null> {
  /** The spec's operationId (the Webhooks spec has none: those three are named here). */
  readonly id: string;
  readonly api: VippsApi;
  readonly method: HttpMethod;
  /** Path template, `{name}` for a path parameter. */
  readonly path: string;
  readonly pathParams: Readonly<Record<string, z.ZodType<string>>>;
  /** Body schema, or null when the operation has no body. */
  readonly request: Request;
  /** The documented success status. */
  readonly successStatus: number;
  /** Other documented success statuses (Recurring's `202 Accepted`). */
  readonly alsoSuccess: readonly number[];
  /** Schema of the success body, or null when there is none (204, or a 200 without a schema). */
  readonly answer: Answer;
  /** Schema of an error body. */
  readonly problem: z.ZodType;
  /** Null when the operation takes no Idempotency-Key. */
  readonly idempotencyKey: IdempotencyKeyRule | null;
  readonly merchantSerialNumber: 'required' | 'optional';
  /** Only in the test environment (force approve / force accept). */
  readonly testOnly: boolean;
}

function operation<const Request extends z.ZodType | null, const Answer extends z.ZodType | null>(
  definition: Omit<Operation<Request, Answer>, 'alsoSuccess' | 'pathParams' | 'testOnly'> & Partial<Pick<Operation, 'alsoSuccess' | 'pathParams' | 'testOnly'>>,
): Operation<Request, Answer> {
  return { alsoSuccess: [], pathParams: {}, testOnly: false, ...definition };
}

const agreementId = z.string().min(1);
const chargeId = z.string().min(1);
const webhookId = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a uuid');

const epayment = { api: 'epayment', problem: EpaymentProblem, merchantSerialNumber: 'required' } as const;
const recurring = { api: 'recurring', problem: RecurringProblem, merchantSerialNumber: 'optional' } as const;
const webhooks = { api: 'webhooks', problem: WebhooksProblem, merchantSerialNumber: 'optional', idempotencyKey: null } as const;

export const operations = {
  // ── Access token 2.0.0 ──────────────────────────────────────────────────────────────────
  fetchAuthorizationTokenUsingPost: operation({
    id: 'fetchAuthorizationTokenUsingPost',
    api: 'access-token',
    method: 'POST',
    path: '/accesstoken/get',
    request: null,
    successStatus: 200,
    answer: AuthorizationTokenResponse,
    problem: AccessTokenError,
    idempotencyKey: null,
    merchantSerialNumber: 'optional',
  }),

  // ── ePayment 1.4.1 ──────────────────────────────────────────────────────────────────────
  createPayment: operation({
    ...epayment,
    id: 'createPayment',
    method: 'POST',
    path: '/epayment/v1/payments',
    request: CreatePaymentRequest,
    successStatus: 201,
    answer: CreatePaymentResponse,
    idempotencyKey: EPAYMENT_IDEMPOTENCY_KEY,
  }),
  getPayment: operation({
    ...epayment,
    id: 'getPayment',
    method: 'GET',
    path: '/epayment/v1/payments/{reference}',
    pathParams: { reference: Reference },
    request: null,
    successStatus: 200,
    answer: GetPaymentResponse,
    idempotencyKey: null,
  }),
  getPaymentEventLog: operation({
    ...epayment,
    id: 'getPaymentEventLog',
    method: 'GET',
    path: '/epayment/v1/payments/{reference}/events',
    pathParams: { reference: Reference },
    request: null,
    successStatus: 200,
    answer: GetPaymentEventLogResponse,
    idempotencyKey: null,
  }),
  /** No body in 1.4.1 (LATER: an optional `{ cancelTransactionOnly }`). */
  cancelPayment: operation({
    ...epayment,
    id: 'cancelPayment',
    method: 'POST',
    path: '/epayment/v1/payments/{reference}/cancel',
    pathParams: { reference: Reference },
    request: null,
    successStatus: 200,
    answer: ModificationResponse,
    idempotencyKey: EPAYMENT_IDEMPOTENCY_KEY,
  }),
  capturePayment: operation({
    ...epayment,
    id: 'capturePayment',
    method: 'POST',
    path: '/epayment/v1/payments/{reference}/capture',
    pathParams: { reference: Reference },
    request: CaptureModificationRequest,
    successStatus: 200,
    answer: ModificationResponse,
    idempotencyKey: EPAYMENT_IDEMPOTENCY_KEY,
  }),
  refundPayment: operation({
    ...epayment,
    id: 'refundPayment',
    method: 'POST',
    path: '/epayment/v1/payments/{reference}/refund',
    pathParams: { reference: Reference },
    request: RefundModificationRequest,
    successStatus: 200,
    answer: ModificationResponse,
    idempotencyKey: EPAYMENT_IDEMPOTENCY_KEY,
  }),
  /** `200 "OK"` without a body schema. */
  forceApprove: operation({
    ...epayment,
    id: 'forceApprove',
    method: 'POST',
    path: '/epayment/v1/test/payments/{reference}/approve',
    pathParams: { reference: Reference },
    request: ForceApprove,
    successStatus: 200,
    answer: null,
    idempotencyKey: null,
    testOnly: true,
  }),

  // ── Recurring v3 (2.6.17) ───────────────────────────────────────────────────────────────
  ListAgreementsV3: operation({
    ...recurring,
    id: 'ListAgreementsV3',
    method: 'GET',
    path: '/recurring/v3/agreements',
    request: null,
    successStatus: 200,
    answer: AgreementList,
    idempotencyKey: null,
  }),
  DraftAgreementV3: operation({
    ...recurring,
    id: 'DraftAgreementV3',
    method: 'POST',
    path: '/recurring/v3/agreements',
    request: DraftAgreementRequest,
    successStatus: 201,
    answer: DraftAgreementResponse,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),
  FetchAgreementV3: operation({
    ...recurring,
    id: 'FetchAgreementV3',
    method: 'GET',
    path: '/recurring/v3/agreements/{agreementId}',
    pathParams: { agreementId },
    request: null,
    successStatus: 200,
    answer: Agreement,
    idempotencyKey: null,
  }),
  UpdateAgreementPatchV3: operation({
    ...recurring,
    id: 'UpdateAgreementPatchV3',
    method: 'PATCH',
    path: '/recurring/v3/agreements/{agreementId}',
    pathParams: { agreementId },
    request: PatchAgreementRequest,
    successStatus: 204,
    alsoSuccess: [202],
    answer: null,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),
  acceptUsingPATCHV3: operation({
    ...recurring,
    id: 'acceptUsingPATCHV3',
    method: 'PATCH',
    path: '/recurring/v3/agreements/{agreementId}/accept',
    pathParams: { agreementId },
    request: ForceAcceptAgreement,
    successStatus: 204,
    answer: null,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
    testOnly: true,
  }),
  ListChargesV3: operation({
    ...recurring,
    id: 'ListChargesV3',
    method: 'GET',
    path: '/recurring/v3/agreements/{agreementId}/charges',
    pathParams: { agreementId },
    request: null,
    successStatus: 200,
    answer: ChargeList,
    idempotencyKey: null,
  }),
  CreateChargeV3: operation({
    ...recurring,
    id: 'CreateChargeV3',
    method: 'POST',
    path: '/recurring/v3/agreements/{agreementId}/charges',
    pathParams: { agreementId },
    request: CreateChargeRequest,
    successStatus: 201,
    answer: CreateChargeResponse,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),
  FetchChargeV3: operation({
    ...recurring,
    id: 'FetchChargeV3',
    method: 'GET',
    path: '/recurring/v3/agreements/{agreementId}/charges/{chargeId}',
    pathParams: { agreementId, chargeId },
    request: null,
    successStatus: 200,
    answer: Charge,
    idempotencyKey: null,
  }),
  CancelChargeV3: operation({
    ...recurring,
    id: 'CancelChargeV3',
    method: 'DELETE',
    path: '/recurring/v3/agreements/{agreementId}/charges/{chargeId}',
    pathParams: { agreementId, chargeId },
    request: null,
    successStatus: 204,
    alsoSuccess: [202],
    answer: null,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),
  FetchChargeByIdV3: operation({
    ...recurring,
    id: 'FetchChargeByIdV3',
    method: 'GET',
    path: '/recurring/v3/charges/{chargeId}',
    pathParams: { chargeId },
    request: null,
    successStatus: 200,
    answer: Charge,
    idempotencyKey: null,
  }),
  CaptureChargeV3: operation({
    ...recurring,
    id: 'CaptureChargeV3',
    method: 'POST',
    path: '/recurring/v3/agreements/{agreementId}/charges/{chargeId}/capture',
    pathParams: { agreementId, chargeId },
    request: CaptureChargeRequest,
    successStatus: 204,
    alsoSuccess: [202],
    answer: null,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),
  RefundChargeV3: operation({
    ...recurring,
    id: 'RefundChargeV3',
    method: 'POST',
    path: '/recurring/v3/agreements/{agreementId}/charges/{chargeId}/refund',
    pathParams: { agreementId, chargeId },
    request: RefundChargeRequest,
    successStatus: 204,
    alsoSuccess: [202],
    answer: null,
    idempotencyKey: RECURRING_IDEMPOTENCY_KEY,
  }),

  // ── Webhooks v1 (the spec's server URL ends in /webhooks, its paths start with /v1) ───────
  registerWebhook: operation({
    ...webhooks,
    id: 'registerWebhook',
    method: 'POST',
    path: '/webhooks/v1/webhooks',
    request: RegisterWebhookRequest,
    successStatus: 201,
    answer: RegisterWebhookResponse,
  }),
  getAllWebhooks: operation({
    ...webhooks,
    id: 'getAllWebhooks',
    method: 'GET',
    path: '/webhooks/v1/webhooks',
    request: null,
    successStatus: 200,
    answer: WebhookList,
  }),
  deleteWebhook: operation({
    ...webhooks,
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/v1/webhooks/{id}',
    pathParams: { id: webhookId },
    request: null,
    successStatus: 204,
    answer: null,
  }),
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

interface CompiledOperation {
  readonly operation: Operation;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const compiled: readonly CompiledOperation[] = Object.values(operations).map((operation: Operation) => {
  const names: string[] = [];
  const source = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  // The token path is matched without regard to case: the webhooks quick-start itself calls
  // `/accessToken/get`.
  return { operation, pattern: new RegExp(`^${source}$`, operation.api === 'access-token' ? 'i' : ''), names };
});

export interface OperationMatch {
  readonly operation: Operation;
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The operation a method and path (without the query) belong to, or null. A path that fits a
 * template but with another method is null too.
 */
export function matchOperation(method: string, pathname: string): OperationMatch | null {
  for (const { operation, pattern, names } of compiled) {
    if (operation.method !== method.toUpperCase()) continue;
    const match = pattern.exec(pathname);
    if (match === null) continue;
    const params: Record<string, string> = {};
    let decodable = true;
    names.forEach((name, index) => {
      try {
        params[name] = decodeURIComponent(match[index + 1] ?? '');
      } catch {
        decodable = false;
      }
    });
    if (decodable) return { operation, params };
  }
  return null;
}

/** A path template filled in, each parameter percent-encoded. */
export function operationPath(operation: Operation, params: Readonly<Record<string, string>>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${operation.id}: path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}
