/**
 * The simulator's ePayment area: payments and their state machine, as payment_states.md and the
 * FAQ describe them.
 *
 *   CREATED → AUTHORIZED (the user approves) | ABORTED (rejects) | EXPIRED (no answer in time)
 *           | TERMINATED (the merchant cancels before the user acted)
 *   AUTHORIZED stays AUTHORIZED: capture (≤ authorized − captured − cancelled), cancel (releases
 *   what is not captured; not possible after full capture) and refund (≤ captured − refunded)
 *   show only in `aggregate` and in the event log.
 */
import type { Amount } from '../contract/common.ts';
import type {
  CreatePaymentRequest,
  EpaymentWebhookEvent,
  GetPaymentResponse,
  ModificationResponse,
  PaymentEvent,
  PaymentEventName,
  PaymentMethodType,
  PaymentState,
  UserFlow,
} from '../contract/epayment.ts';
import { Refusal, randomDigits, urlProblem } from './support.ts';
import type { Answer, Emit } from './support.ts';
import { randomUUID } from 'node:crypto';

export interface Payment {
  readonly msn: string;
  readonly reference: string;
  readonly amount: Amount;
  readonly paymentMethod: PaymentMethodType;
  readonly userFlow: UserFlow;
  readonly returnUrl: string | undefined;
  readonly paymentDescription: string | undefined;
  readonly profileScope: string | undefined;
  readonly metadata: Record<string, string> | null | undefined;
  readonly pspReference: string;
  readonly createIdempotencyKey: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  state: PaymentState;
  authorized: number;
  captured: number;
  cancelled: number;
  refunded: number;
  sub: string | undefined;
  readonly events: PaymentEvent[];
}

export interface EpaymentAreaOptions {
  now: () => Date;
  publicUrl: () => string;
  emit: Emit;
  paymentExpiryMs: number;
}

export interface EpaymentRequest {
  msn: string;
  params: Readonly<Record<string, string>>;
  body: unknown;
  idempotencyKey: string | undefined;
}

const MINIMUM_NOK = 100;
const MINUTE = 60_000;

function eventType(name: PaymentEventName): string {
  return `epayments.payment.${name.toLowerCase()}.v1`;
}

export function createEpaymentArea({ now, publicUrl, emit, paymentExpiryMs }: EpaymentAreaOptions) {
  const payments = new Map<string, Payment>();
  const key = (msn: string, reference: string) => `${msn}\u0000${reference}`;

  function amount(payment: Payment, value: number): Amount {
    return { currency: payment.amount.currency, value };
  }

  function record(payment: Payment, name: PaymentEventName, value: number, idempotencyKey: string | null, at = now()): PaymentEvent {
    const event: PaymentEvent = {
      reference: payment.reference,
      pspReference: randomDigits(),
      name,
      amount: amount(payment, value),
      timestamp: at.toISOString(),
      success: true,
      ...(idempotencyKey === null ? {} : { idempotencyKey }),
    };
    payment.events.push(event);
    const payload: EpaymentWebhookEvent = { msn: payment.msn, ...event, idempotencyKey: idempotencyKey };
    emit(payment.msn, eventType(name), payload);
    return event;
  }

  function find(msn: string, reference: string): Payment {
    const payment = payments.get(key(msn, reference));
    if (payment === undefined) throw new Refusal(404, 'not-found', 'Payment not found', `No payment with reference ${reference} for merchant ${msn}`);
    return payment;
  }

  /** For the landing page and the test hooks, which know only the reference. */
  function byReference(reference: string): Payment | undefined {
    let latest: Payment | undefined;
    for (const payment of payments.values()) {
      if (payment.reference === reference && (latest === undefined || payment.createdAtMs >= latest.createdAtMs)) latest = payment;
    }
    return latest;
  }

  /** The clock decides expiry whenever the simulator is asked anything. */
  function sweep(): void {
    const at = now().getTime();
    for (const payment of payments.values()) {
      if (payment.state === 'CREATED' && at >= payment.expiresAtMs) {
        payment.state = 'EXPIRED';
        record(payment, 'EXPIRED', payment.amount.value, null, new Date(payment.expiresAtMs));
      }
    }
  }

  function aggregate(payment: Payment): GetPaymentResponse['aggregate'] {
    return {
      authorizedAmount: amount(payment, payment.authorized),
      cancelledAmount: amount(payment, payment.cancelled),
      capturedAmount: amount(payment, payment.captured),
      refundedAmount: amount(payment, payment.refunded),
    };
  }

  function landingUrl(reference: string): string {
    return `${publicUrl()}/simulator/landing?reference=${encodeURIComponent(reference)}`;
  }

  function view(payment: Payment): GetPaymentResponse {
    return {
      aggregate: aggregate(payment),
      amount: payment.amount,
      state: payment.state,
      paymentMethod: { type: payment.paymentMethod },
      profile: payment.sub === undefined ? {} : { sub: payment.sub },
      pspReference: payment.pspReference,
      reference: payment.reference,
      ...(payment.userFlow === 'PUSH_MESSAGE' ? {} : { redirectUrl: landingUrl(payment.reference) }),
      ...(payment.metadata === undefined ? {} : { metadata: payment.metadata }),
    };
  }

  function modification(payment: Payment, event: PaymentEvent): Answer {
    const body: ModificationResponse = {
      amount: payment.amount,
      state: payment.state,
      aggregate: aggregate(payment),
      pspReference: event.pspReference,
      reference: payment.reference,
    };
    return { status: 200, body };
  }

  function create(request: EpaymentRequest): Answer {
    const body = request.body as CreatePaymentRequest;
    if (body.amount.currency !== 'NOK') {
      throw new Refusal(400, 'currency-not-supported', 'Currency not supported', 'amount.currency: Only NOK is supported at the moment.');
    }
    if (body.amount.value < MINIMUM_NOK) {
      throw new Refusal(400, 'amount-too-small', 'Amount too small', `amount.value: For NOK the minimum is ${MINIMUM_NOK}.`);
    }
    if (body.returnUrl !== undefined) {
      const problem = urlProblem(body.returnUrl, true);
      if (problem !== null) throw new Refusal(400, 'validation-error', 'Bad Request', `returnUrl: ${problem}`);
    }
    const at = now().getTime();
    let expiresAtMs = at + paymentExpiryMs;
    if (body.expiresAt !== undefined && body.expiresAt !== null) {
      expiresAtMs = new Date(body.expiresAt).getTime();
      if (!(expiresAtMs > at + 10 * MINUTE && expiresAtMs < at + 28 * 24 * 60 * MINUTE)) {
        throw new Refusal(400, 'expiration-date-invalid', 'Expiration date invalid', "expiresAt: 'ExpiresAt' must be greater than 10 minutes and less than 40320 minutes into the future");
      }
    }
    if (payments.has(key(request.msn, body.reference))) {
      throw new Refusal(409, 'reference-already-exists', 'Idempotency error', `Reference \`${body.reference}\` already exists.`);
    }
    const payment: Payment = {
      msn: request.msn,
      reference: body.reference,
      amount: body.amount,
      paymentMethod: body.paymentMethod.type,
      userFlow: body.userFlow,
      returnUrl: body.returnUrl,
      paymentDescription: body.paymentDescription,
      profileScope: body.profile?.scope,
      metadata: body.metadata,
      pspReference: randomUUID(),
      createIdempotencyKey: request.idempotencyKey ?? '',
      createdAtMs: at,
      expiresAtMs,
      state: 'CREATED',
      authorized: 0,
      captured: 0,
      cancelled: 0,
      refunded: 0,
      sub: undefined,
      events: [],
    };
    payments.set(key(payment.msn, payment.reference), payment);
    record(payment, 'CREATED', payment.amount.value, payment.createIdempotencyKey);
    // "Nothing will be returned when userFlow is PUSH_MESSAGE". For NATIVE_REDIRECT (a `vipps://`
    // deeplink) and QR (an image link) the simulator also answers with its landing page.
    return {
      status: 201,
      body: body.userFlow === 'PUSH_MESSAGE' ? { reference: payment.reference } : { redirectUrl: landingUrl(payment.reference), reference: payment.reference },
    };
  }

  function requireCreated(payment: Payment, action: string): void {
    if (payment.state !== 'CREATED') {
      throw new Refusal(400, 'invalid-state', 'Payment is not awaiting the user', `Payment ${payment.reference} is ${payment.state}; only a CREATED payment can be ${action}`);
    }
  }

  function requireAuthorized(payment: Payment, action: string): void {
    if (payment.state !== 'AUTHORIZED') {
      throw new Refusal(400, 'invalid-state', `${action} not allowed`, `Payment ${payment.reference} is ${payment.state}; only an AUTHORIZED payment can be ${action.toLowerCase()}d`);
    }
  }

  function checkCurrency(payment: Payment, modification: Amount, field: string): void {
    if (modification.currency !== payment.amount.currency) {
      throw new Refusal(400, 'validation-error', 'Bad Request', `${field}.currency: must be ${payment.amount.currency}, the currency of the payment`);
    }
    if (modification.value <= 0) throw new Refusal(400, 'validation-error', 'Bad Request', `${field}.value: must be greater than 0`);
  }

  function authorize(payment: Payment): void {
    requireCreated(payment, 'approved');
    payment.state = 'AUTHORIZED';
    payment.authorized = payment.amount.value;
    if (payment.profileScope !== undefined && payment.profileScope.trim() !== '') payment.sub = randomUUID();
    record(payment, 'AUTHORIZED', payment.amount.value, payment.createIdempotencyKey);
  }

  const handlers = {
    createPayment: create,
    getPayment: (request: EpaymentRequest): Answer => ({ status: 200, body: view(find(request.msn, request.params['reference'] ?? '')) }),
    getPaymentEventLog: (request: EpaymentRequest): Answer => ({ status: 200, body: find(request.msn, request.params['reference'] ?? '').events }),
    cancelPayment: (request: EpaymentRequest): Answer => {
      const payment = find(request.msn, request.params['reference'] ?? '');
      const key = request.idempotencyKey ?? null;
      if (payment.state === 'CREATED') {
        payment.state = 'TERMINATED';
        return modification(payment, record(payment, 'TERMINATED', payment.amount.value, key));
      }
      requireAuthorized(payment, 'Cancel');
      const remaining = payment.authorized - payment.captured - payment.cancelled;
      if (remaining <= 0) {
        throw new Refusal(400, 'cancel-not-allowed', 'Cancel not allowed', `Payment ${payment.reference} has nothing left to cancel (not possible after full capture)`);
      }
      payment.cancelled += remaining;
      return modification(payment, record(payment, 'CANCELLED', remaining, key));
    },
    capturePayment: (request: EpaymentRequest): Answer => {
      const payment = find(request.msn, request.params['reference'] ?? '');
      const { modificationAmount } = request.body as { modificationAmount: Amount };
      requireAuthorized(payment, 'Capture');
      checkCurrency(payment, modificationAmount, 'modificationAmount');
      const capturable = payment.authorized - payment.captured - payment.cancelled;
      if (modificationAmount.value > capturable) {
        throw new Refusal(400, 'capture-amount-too-high', 'Capture amount too high', `modificationAmount.value: ${modificationAmount.value} is more than the ${capturable} left to capture`);
      }
      payment.captured += modificationAmount.value;
      return modification(payment, record(payment, 'CAPTURED', modificationAmount.value, request.idempotencyKey ?? null));
    },
    refundPayment: (request: EpaymentRequest): Answer => {
      const payment = find(request.msn, request.params['reference'] ?? '');
      const { modificationAmount } = request.body as { modificationAmount: Amount };
      requireAuthorized(payment, 'Refund');
      checkCurrency(payment, modificationAmount, 'modificationAmount');
      const refundable = payment.captured - payment.refunded;
      if (modificationAmount.value > refundable) {
        throw new Refusal(400, 'not-enough-refundable', 'Not enough refundable', `modificationAmount.value: ${modificationAmount.value} is more than the ${refundable} that can be refunded`);
      }
      payment.refunded += modificationAmount.value;
      return modification(payment, record(payment, 'REFUNDED', modificationAmount.value, request.idempotencyKey ?? null));
    },
    forceApprove: (request: EpaymentRequest): Answer => {
      authorize(find(request.msn, request.params['reference'] ?? ''));
      return { status: 200 };
    },
  } as const;

  function userAction(reference: string, action: 'approve' | 'reject' | 'expire'): Payment {
    const payment = byReference(reference);
    if (payment === undefined) throw new Error(`No payment with reference ${reference}`);
    sweep();
    if (action === 'approve') {
      authorize(payment);
    } else if (action === 'reject') {
      requireCreated(payment, 'rejected');
      payment.state = 'ABORTED';
      record(payment, 'ABORTED', payment.amount.value, payment.createIdempotencyKey);
    } else {
      requireCreated(payment, 'expired');
      payment.state = 'EXPIRED';
      record(payment, 'EXPIRED', payment.amount.value, null);
    }
    return payment;
  }

  return { handlers, sweep, byReference, userAction };
}
