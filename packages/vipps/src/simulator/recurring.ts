/**
 * The simulator's Recurring v3 area: agreements and charges as the 2.6.17 spec and its guide
 * describe them.
 *
 * Agreements: PENDING → ACTIVE (the user approves; an initial charge is taken at once and, if it
 * fails, the agreement EXPIRES instead) | STOPPED (the user declines) | EXPIRED (no answer within
 * `agreementExpiryMs`, the guide's 10 minutes). ACTIVE → STOPPED (merchant PATCH, or the user in
 * the app), which cancels the charges still PENDING, DUE or RESERVED.
 *
 * Charges: created PENDING; `processCharges()` takes those due (Oslo calendar day) → CHARGED
 * (DIRECT_CAPTURE) or RESERVED (RESERVE_CAPTURE), or on failure stays DUE while its retry days
 * last and then FAILED. Captures, cancels and refunds as the guide's state table.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  Agreement,
  AgreementStatus,
  CaptureChargeRequest,
  Charge,
  ChargeEvent,
  ChargeFailureReason,
  ChargeStatus,
  ChargeType,
  CreateChargeRequest,
  DraftAgreementRequest,
  DraftAgreementResponse,
  PatchAgreementRequest,
  PricingResponse,
  RefundChargeRequest,
  TimePeriod,
  TransactionType,
} from '../contract/recurring.ts';
import { AgreementStatus as AgreementStatusSchema, ChargeStatus as ChargeStatusSchema, DraftAgreementRequest as DraftAgreementRequestSchema } from '../contract/recurring.ts';
import { Refusal, addDays, addYears, osloDate, randomAlphanumeric, randomDigits, urlProblem } from './support.ts';
import type { Answer, Emit } from './support.ts';

export interface AgreementRecord {
  readonly msn: string;
  readonly id: string;
  readonly uuid: string;
  status: AgreementStatus;
  pricing: DraftAgreementRequest['pricing'];
  interval: TimePeriod;
  productName: string;
  productDescription: string | undefined;
  readonly merchantRedirectUrl: string;
  merchantAgreementUrl: string;
  externalId: string | undefined;
  readonly campaign: DraftAgreementRequest['campaign'];
  readonly initialChargeId: string | undefined;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  startMs: number | undefined;
  stopMs: number | undefined;
}

export interface ChargeRecord {
  readonly msn: string;
  readonly id: string;
  readonly agreementId: string;
  readonly amount: number;
  readonly description: string;
  /** `YYYY-MM-DD`. */
  readonly due: string;
  readonly retryDays: number;
  readonly type: ChargeType;
  readonly transactionType: TransactionType;
  readonly externalId: string;
  status: ChargeStatus;
  transactionId: string | null;
  failureReason: ChargeFailureReason | undefined;
  failureDescription: string | undefined;
  captured: number;
  refunded: number;
  cancelled: number;
  readonly history: ChargeEvent[];
}

/** The terms a restored agreement keeps: those of its draft, checked as a draft is. */
const RestoredTerms = DraftAgreementRequestSchema.pick({
  pricing: true,
  interval: true,
  productName: true,
  productDescription: true,
  merchantRedirectUrl: true,
  merchantAgreementUrl: true,
  externalId: true,
});

/** An ACTIVE agreement to seed (`VippsSimulator.restoreAgreement`): its id and the terms it was drafted with. */
export type RestoredAgreement = z.input<typeof RestoredTerms> & {
  /** The id the merchant stored (`agr_…`). */
  agreementId: string;
  /** When the payer approved it; default now. */
  start?: Date;
};

export interface RecurringAreaOptions {
  now: () => Date;
  publicUrl: () => string;
  emit: Emit;
  chargeLeadDays: number;
  agreementExpiryMs: number;
  failCharges: () => boolean;
}

export interface RecurringRequest {
  msn: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: unknown;
  idempotencyKey: string | undefined;
}

/** Guide: a LEGACY agreement can be charged at most five times its price. */
const LEGACY_CHARGE_FACTOR = 5;

const UNIT_TEXT: Record<TimePeriod['unit'], string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };

function intervalText({ unit, count }: TimePeriod): string {
  return count === 1 ? `every ${UNIT_TEXT[unit]}` : `every ${count} ${UNIT_TEXT[unit]}s`;
}

export function createRecurringArea({ now, publicUrl, emit, chargeLeadDays, agreementExpiryMs, failCharges }: RecurringAreaOptions) {
  const agreements = new Map<string, AgreementRecord>();
  const charges = new Map<string, ChargeRecord>();
  const key = (msn: string, id: string) => `${msn}\u0000${id}`;

  function iso(ms: number | undefined): string | null {
    return ms === undefined ? null : new Date(ms).toISOString();
  }

  function emitAgreement(agreement: AgreementRecord, eventType: string): void {
    emit(agreement.msn, eventType, {
      msn: agreement.msn,
      agreementId: agreement.id,
      agreementExternalId: agreement.externalId ?? null,
      eventType,
      occurred: now().toISOString(),
    });
  }

  function emitCharge(charge: ChargeRecord, eventType: string): void {
    emit(charge.msn, eventType, {
      msn: charge.msn,
      agreementId: charge.agreementId,
      chargeId: charge.id,
      chargeExternalId: charge.externalId,
      chargeType: charge.type,
      amount: charge.amount,
      currency: 'NOK',
      eventType,
      occurred: now().toISOString(),
      ...(charge.status === 'FAILED' ? { failureReason: charge.failureReason ?? null, failureDescription: charge.failureDescription ?? null } : {}),
    });
  }

  function history(charge: ChargeRecord, event: ChargeEvent['event'], amount: number, idempotencyKey: string, success = true): void {
    charge.history.push({ occurred: now().toISOString(), event, amount, idempotencyKey, success });
  }

  function landingUrl(agreementId: string): string {
    return `${publicUrl()}/simulator/landing?agreementId=${encodeURIComponent(agreementId)}`;
  }

  function agreementView(agreement: AgreementRecord): Agreement {
    const pricing: PricingResponse =
      agreement.pricing.type === 'VARIABLE'
        ? // The user would set maxAmount when accepting; the simulator's user accepts the suggestion.
          { type: 'VARIABLE', currency: 'NOK', suggestedMaxAmount: agreement.pricing.suggestedMaxAmount ?? 0, maxAmount: agreement.pricing.suggestedMaxAmount ?? 0 }
        : { type: 'LEGACY', currency: 'NOK', amount: agreement.pricing.amount ?? 0 };
    return {
      id: agreement.id,
      status: agreement.status,
      pricing,
      interval: { unit: agreement.interval.unit, count: agreement.interval.count, text: intervalText(agreement.interval) },
      productName: agreement.productName,
      ...(agreement.productDescription === undefined ? {} : { productDescription: agreement.productDescription }),
      created: new Date(agreement.createdAtMs).toISOString(),
      start: iso(agreement.startMs),
      stop: iso(agreement.stopMs),
      campaign: agreement.campaign === undefined ? null : { ...agreement.campaign },
      merchantAgreementUrl: agreement.merchantAgreementUrl,
      merchantRedirectUrl: agreement.merchantRedirectUrl,
      sub: null,
      userinfoUrl: null,
      ...(agreement.externalId === undefined ? {} : { externalId: agreement.externalId }),
      countryCode: 'NO',
      uuid: agreement.uuid,
      vippsConfirmationUrl: landingUrl(agreement.id),
    };
  }

  function chargeView(charge: ChargeRecord): Charge {
    return {
      id: charge.id,
      agreementId: charge.agreementId,
      amount: charge.amount,
      currency: 'NOK',
      description: charge.description,
      due: `${charge.due}T00:00:00Z`,
      status: charge.status,
      type: charge.type,
      transactionType: charge.transactionType,
      transactionId: charge.transactionId,
      retryDays: charge.retryDays,
      externalId: charge.externalId,
      ...(charge.failureReason === undefined ? {} : { failureReason: charge.failureReason }),
      ...(charge.failureDescription === undefined ? {} : { failureDescription: charge.failureDescription }),
      summary: { captured: charge.captured, refunded: charge.refunded, cancelled: charge.cancelled },
      history: charge.history.map((event) => ({ ...event })),
    };
  }

  function findAgreement(msn: string, agreementId: string): AgreementRecord {
    const agreement = agreements.get(key(msn, agreementId));
    if (agreement === undefined) throw new Refusal(404, 'resource-not-found', 'Not Found', `No agreement ${agreementId} for merchant ${msn}`);
    return agreement;
  }

  function findCharge(msn: string, chargeId: string, agreementId?: string): ChargeRecord {
    const charge = charges.get(key(msn, chargeId));
    if (charge === undefined || (agreementId !== undefined && charge.agreementId !== agreementId)) {
      throw new Refusal(404, 'resource-not-found', 'Not Found', `No charge ${chargeId}${agreementId === undefined ? '' : ` on agreement ${agreementId}`}`);
    }
    return charge;
  }

  function byAgreementId(agreementId: string): AgreementRecord | undefined {
    for (const agreement of agreements.values()) if (agreement.id === agreementId) return agreement;
    return undefined;
  }

  function systemKey(charge: ChargeRecord, step: string): string {
    return `${charge.id}-${charge.agreementId}-${step}`;
  }

  function cancelOpenCharges(agreement: AgreementRecord): void {
    for (const charge of charges.values()) {
      if (charge.msn !== agreement.msn || charge.agreementId !== agreement.id) continue;
      if (charge.status === 'PENDING' || charge.status === 'DUE' || charge.status === 'RESERVED') {
        charge.cancelled = charge.amount - charge.captured;
        charge.status = 'CANCELLED';
        history(charge, 'CANCEL', charge.cancelled, systemKey(charge, 'AgreementStopped'));
        emitCharge(charge, 'recurring.charge-canceled.v1');
      }
    }
  }

  function stop(agreement: AgreementRecord): void {
    agreement.status = 'STOPPED';
    agreement.stopMs = now().getTime();
    cancelOpenCharges(agreement);
    emitAgreement(agreement, 'recurring.agreement-stopped.v1');
  }

  function expireAgreement(agreement: AgreementRecord): void {
    agreement.status = 'EXPIRED';
    agreement.stopMs = now().getTime();
    cancelOpenCharges(agreement);
    emitAgreement(agreement, 'recurring.agreement-expired.v1');
  }

  /** Why a charge cannot be taken now, or null. */
  function failure(charge: ChargeRecord, agreement: AgreementRecord): { reason: ChargeFailureReason; description: string } | null {
    if (agreement.pricing.type === 'VARIABLE' && charge.amount > (agreement.pricing.suggestedMaxAmount ?? 0)) {
      return { reason: 'charge_amount_too_high', description: 'Amount is higher than the maximum amount the user accepted' };
    }
    if (failCharges()) return { reason: 'user_action_required', description: 'User action required' };
    return null;
  }

  function succeed(charge: ChargeRecord): void {
    if (charge.transactionType === 'DIRECT_CAPTURE') {
      charge.status = 'CHARGED';
      charge.captured = charge.amount;
      charge.transactionId = randomDigits();
      history(charge, 'CAPTURE', charge.amount, systemKey(charge, 'ProcessPayment'));
      emitCharge(charge, 'recurring.charge-captured.v1');
    } else {
      charge.status = 'RESERVED';
      charge.transactionId = randomDigits();
      history(charge, 'RESERVE', charge.amount, systemKey(charge, 'ProcessPayment'));
      emitCharge(charge, 'recurring.charge-reserved.v1');
    }
  }

  function fail(charge: ChargeRecord, reason: { reason: ChargeFailureReason; description: string }): void {
    charge.status = 'FAILED';
    charge.failureReason = reason.reason;
    charge.failureDescription = reason.description;
    history(charge, 'FAIL', charge.amount, systemKey(charge, 'ProcessPayment'), false);
    emitCharge(charge, 'recurring.charge-failed.v1');
  }

  function sweep(): void {
    const at = now().getTime();
    for (const agreement of agreements.values()) {
      if (agreement.status === 'PENDING' && at >= agreement.expiresAtMs) expireAgreement(agreement);
    }
  }

  function newChargeId(msn: string, orderId: string | undefined): string {
    if (orderId !== undefined) {
      if (charges.has(key(msn, orderId))) throw new Refusal(409, 'conflict', 'Conflict', `orderId: a charge with id ${orderId} already exists`);
      return orderId;
    }
    let id: string;
    do id = `chr-${randomAlphanumeric(7)}`;
    while (charges.has(key(msn, id)));
    return id;
  }

  function redirectProblem(field: string, value: string, allowCustomScheme: boolean): void {
    const problem = urlProblem(value, allowCustomScheme);
    if (problem !== null) throw new Refusal(400, 'validation-error', 'Bad Request', `${field}: ${problem}`, [{ name: field, reason: problem }]);
  }

  function draft(request: RecurringRequest): Answer {
    const body = request.body as DraftAgreementRequest;
    redirectProblem('merchantRedirectUrl', body.merchantRedirectUrl, true);
    redirectProblem('merchantAgreementUrl', body.merchantAgreementUrl, false);
    if (body.skipLandingPage === true) {
      throw new Refusal(403, 'not-authorized', 'Forbidden', 'skipLandingPage: only for whitelisted sales units');
    }
    let id: string;
    do id = `agr_${randomAlphanumeric(7)}`;
    while (agreements.has(key(request.msn, id)));
    const at = now().getTime();
    const initialChargeId = body.initialCharge === undefined ? undefined : newChargeId(request.msn, body.initialCharge.orderId);
    const agreement: AgreementRecord = {
      msn: request.msn,
      id,
      uuid: randomUUID(),
      status: 'PENDING',
      pricing: body.pricing,
      interval: body.interval,
      productName: body.productName,
      productDescription: body.productDescription,
      merchantRedirectUrl: body.merchantRedirectUrl,
      merchantAgreementUrl: body.merchantAgreementUrl,
      externalId: body.externalId,
      campaign: body.campaign,
      initialChargeId,
      createdAtMs: at,
      expiresAtMs: at + agreementExpiryMs,
      startMs: undefined,
      stopMs: undefined,
    };
    agreements.set(key(agreement.msn, agreement.id), agreement);
    if (body.initialCharge !== undefined && initialChargeId !== undefined) {
      openCharge(
        {
          msn: request.msn,
          id: initialChargeId,
          agreementId: id,
          amount: body.initialCharge.amount,
          description: body.initialCharge.description,
          due: osloDate(now()),
          retryDays: 0,
          type: 'INITIAL',
          transactionType: body.initialCharge.transactionType,
          // Not said for the response; an absent externalId is given the chargeId (as for charges).
          externalId: body.initialCharge.externalId ?? initialChargeId,
        },
        request.idempotencyKey,
      );
    }
    const answer: DraftAgreementResponse = {
      agreementId: id,
      uuid: agreement.uuid,
      vippsConfirmationUrl: landingUrl(id),
      chargeId: initialChargeId ?? null,
    };
    return { status: 201, body: answer };
  }

  function activate(agreement: AgreementRecord): void {
    if (agreement.status !== 'PENDING') {
      throw new Refusal(400, 'illegal-agreement-update', 'Bad Request', `Agreement ${agreement.id} is ${agreement.status}; only a PENDING agreement can be accepted`);
    }
    const initial = agreement.initialChargeId === undefined ? undefined : charges.get(key(agreement.msn, agreement.initialChargeId));
    if (initial !== undefined) {
      const problem = failCharges() ? { reason: 'user_action_required' as const, description: 'User action required' } : null;
      if (problem !== null) {
        fail(initial, problem);
        expireAgreement(agreement);
        return;
      }
    }
    agreement.status = 'ACTIVE';
    agreement.startMs = now().getTime();
    emitAgreement(agreement, 'recurring.agreement-activated.v1');
    if (initial !== undefined) succeed(initial);
  }

  function checkDue(due: string): void {
    const today = osloDate(now());
    const earliest = addDays(today, chargeLeadDays);
    if (due < earliest) {
      throw new Refusal(400, 'charge-due-too-soon', 'Bad Request', `due: Charge date due must be a minimum of ${chargeLeadDays} days in the future (earliest ${earliest})`, [
        { name: 'due', reason: `must be ${earliest} or later` },
      ]);
    }
    if (due > addYears(today, 2)) {
      throw new Refusal(400, 'charge-due-in-too-long', 'Bad Request', 'due: Charge date due can be a maximum of 2 years in the future', [{ name: 'due', reason: 'must be at most 2 years ahead' }]);
    }
  }

  function createCharge(request: RecurringRequest): Answer {
    const agreement = findAgreement(request.msn, request.params['agreementId'] ?? '');
    const body = request.body as CreateChargeRequest;
    if (agreement.status !== 'ACTIVE') {
      throw new Refusal(400, 'charge-creation-failed', 'Bad Request', `Agreement ${agreement.id} is ${agreement.status}; charges need an ACTIVE agreement`);
    }
    checkDue(body.due);
    if (agreement.pricing.type !== 'VARIABLE' && agreement.pricing.amount !== undefined && body.amount > agreement.pricing.amount * LEGACY_CHARGE_FACTOR) {
      throw new Refusal(400, 'charge-amount-too-high', 'Bad Request', `amount: at most ${LEGACY_CHARGE_FACTOR} times the agreement's price (${agreement.pricing.amount * LEGACY_CHARGE_FACTOR})`, [
        { name: 'amount', reason: 'too high for the agreement' },
      ]);
    }
    const id = newChargeId(request.msn, body.orderId);
    openCharge(
      {
        msn: request.msn,
        id,
        agreementId: agreement.id,
        amount: body.amount,
        description: body.description,
        due: body.due,
        retryDays: body.retryDays,
        type: 'RECURRING',
        transactionType: body.transactionType,
        // `externalId` is required in the answer but optional in the request; NOT FOUND what the
        // API answers without one, the simulator gives the chargeId.
        externalId: body.externalId ?? id,
      },
      request.idempotencyKey,
    );
    return { status: 201, body: { chargeId: id } };
  }

  /** A charge as it is created (either kind): PENDING, nothing moved yet, its CREATE in the history. */
  function openCharge(
    fields: Omit<ChargeRecord, 'status' | 'transactionId' | 'failureReason' | 'failureDescription' | 'captured' | 'refunded' | 'cancelled' | 'history'>,
    idempotencyKey: string | undefined,
  ): ChargeRecord {
    const charge: ChargeRecord = { ...fields, status: 'PENDING', transactionId: null, failureReason: undefined, failureDescription: undefined, captured: 0, refunded: 0, cancelled: 0, history: [] };
    history(charge, 'CREATE', charge.amount, idempotencyKey ?? '');
    charges.set(key(charge.msn, charge.id), charge);
    return charge;
  }

  function patch(request: RecurringRequest): Answer {
    const agreement = findAgreement(request.msn, request.params['agreementId'] ?? '');
    const body = request.body as PatchAgreementRequest;
    if (body.status === 'STOPPED') {
      if (agreement.status === 'STOPPED') return { status: 204 };
      if (agreement.status === 'EXPIRED') {
        throw new Refusal(400, 'illegal-agreement-update', 'Bad Request', `Agreement ${agreement.id} is EXPIRED and cannot be stopped`);
      }
      stop(agreement);
      return { status: 204 };
    }
    if (agreement.status !== 'ACTIVE' && agreement.status !== 'PENDING') {
      throw new Refusal(400, 'illegal-agreement-update', 'Bad Request', `Agreement ${agreement.id} is ${agreement.status} and cannot be changed`);
    }
    if (body.pricing?.amount !== undefined && agreement.pricing.type === 'VARIABLE') {
      throw new Refusal(400, 'illegal-agreement-update', 'Bad Request', 'pricing.amount: only for LEGACY pricing', [{ name: 'pricing.amount', reason: 'only for LEGACY pricing' }]);
    }
    if (body.pricing?.suggestedMaxAmount !== undefined && agreement.pricing.type !== 'VARIABLE') {
      throw new Refusal(400, 'invalid-suggested-max-amount', 'Bad Request', 'pricing.suggestedMaxAmount: only for VARIABLE pricing', [
        { name: 'pricing.suggestedMaxAmount', reason: 'only for VARIABLE pricing' },
      ]);
    }
    if (body.merchantAgreementUrl !== undefined) redirectProblem('merchantAgreementUrl', body.merchantAgreementUrl, false);
    if (body.productName !== undefined) agreement.productName = body.productName;
    if (body.productDescription !== undefined) agreement.productDescription = body.productDescription;
    if (body.merchantAgreementUrl !== undefined) agreement.merchantAgreementUrl = body.merchantAgreementUrl;
    if (body.externalId !== undefined) agreement.externalId = body.externalId;
    if (body.pricing !== undefined) agreement.pricing = { ...agreement.pricing, ...body.pricing };
    if (body.interval !== undefined) agreement.interval = body.interval.period;
    return { status: 204 };
  }

  function cancelCharge(request: RecurringRequest): Answer {
    const charge = findCharge(request.msn, request.params['chargeId'] ?? '', request.params['agreementId']);
    if (charge.status === 'PARTIALLY_CAPTURED') {
      // Guide: cancelling a partially captured charge releases the rest and leaves it CHARGED.
      charge.cancelled = charge.amount - charge.captured;
      charge.status = 'CHARGED';
    } else if (charge.status === 'PENDING' || charge.status === 'DUE' || charge.status === 'RESERVED') {
      charge.cancelled = charge.amount - charge.captured;
      charge.status = 'CANCELLED';
    } else {
      throw new Refusal(400, 'cancel-charge-failed', 'Bad Request', `Charge ${charge.id} is ${charge.status}; only PENDING, DUE, RESERVED or PARTIALLY_CAPTURED charges can be cancelled`);
    }
    history(charge, 'CANCEL', charge.cancelled, request.idempotencyKey ?? '');
    emitCharge(charge, 'recurring.charge-canceled.v1');
    return { status: 204 };
  }

  function captureCharge(request: RecurringRequest): Answer {
    const charge = findCharge(request.msn, request.params['chargeId'] ?? '', request.params['agreementId']);
    const body = request.body as CaptureChargeRequest;
    if (charge.transactionType !== 'RESERVE_CAPTURE' || (charge.status !== 'RESERVED' && charge.status !== 'PARTIALLY_CAPTURED')) {
      throw new Refusal(400, 'charge-capture-failed', 'Bad Request', `Charge ${charge.id} is ${charge.status} (${charge.transactionType}); only a RESERVED RESERVE_CAPTURE charge can be captured`);
    }
    const capturable = charge.amount - charge.captured - charge.cancelled;
    if (body.amount > capturable) {
      throw new Refusal(400, 'charge-capture-failed', 'Bad Request', `amount: ${body.amount} is more than the ${capturable} left to capture`, [
        { name: 'amount', reason: 'more than is left to capture' },
      ]);
    }
    charge.captured += body.amount;
    charge.status = charge.captured === charge.amount ? 'CHARGED' : 'PARTIALLY_CAPTURED';
    history(charge, 'CAPTURE', body.amount, request.idempotencyKey ?? '');
    emitCharge(charge, 'recurring.charge-captured.v1');
    return { status: 204 };
  }

  function refundCharge(request: RecurringRequest): Answer {
    const charge = findCharge(request.msn, request.params['chargeId'] ?? '', request.params['agreementId']);
    const body = request.body as RefundChargeRequest;
    if (charge.status !== 'CHARGED' && charge.status !== 'PARTIALLY_CAPTURED' && charge.status !== 'PARTIALLY_REFUNDED') {
      throw new Refusal(400, 'operation-failed', 'Bad Request', `Charge ${charge.id} is ${charge.status}; nothing captured to refund`);
    }
    const refundable = charge.captured - charge.refunded;
    if (body.amount > refundable) {
      throw new Refusal(400, 'operation-failed', 'Bad Request', `amount: ${body.amount} is more than the ${refundable} that can be refunded`, [
        { name: 'amount', reason: 'more than can be refunded' },
      ]);
    }
    charge.refunded += body.amount;
    charge.status = charge.refunded === charge.captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    history(charge, 'REFUND', body.amount, request.idempotencyKey ?? '');
    emitCharge(charge, 'recurring.charge-refunded.v1');
    return { status: 204 };
  }

  function listAgreements(request: RecurringRequest): Answer {
    const statusParam = request.query.get('status') ?? 'ACTIVE';
    const status = AgreementStatusSchema.safeParse(statusParam);
    if (!status.success)
      throw new Refusal(400, 'validation-error', 'Bad Request', `status: must be one of ${AgreementStatusSchema.options.join(', ')}`, [{ name: 'status', reason: 'unknown status' }]);
    const createdAfterParam = request.query.get('createdAfter');
    const createdAfter = createdAfterParam === null ? undefined : Number(createdAfterParam);
    if (createdAfter !== undefined && !Number.isSafeInteger(createdAfter)) {
      throw new Refusal(400, 'validation-error', 'Bad Request', 'createdAfter: must be epoch milliseconds', [{ name: 'createdAfter', reason: 'must be an integer' }]);
    }
    const list = [...agreements.values()]
      .filter((agreement) => agreement.msn === request.msn && agreement.status === status.data)
      .filter((agreement) => createdAfter === undefined || agreement.createdAtMs > createdAfter)
      .map(agreementView);
    return { status: 200, body: list };
  }

  function listCharges(request: RecurringRequest): Answer {
    const agreement = findAgreement(request.msn, request.params['agreementId'] ?? '');
    const statusParam = request.query.get('status');
    if (statusParam !== null && !ChargeStatusSchema.safeParse(statusParam).success) {
      throw new Refusal(400, 'validation-error', 'Bad Request', `status: must be one of ${ChargeStatusSchema.options.join(', ')}`, [{ name: 'status', reason: 'unknown status' }]);
    }
    const list = [...charges.values()]
      .filter((charge) => charge.msn === agreement.msn && charge.agreementId === agreement.id)
      .filter((charge) => statusParam === null || charge.status === statusParam)
      .map(chargeView);
    return { status: 200, body: list };
  }

  const handlers = {
    ListAgreementsV3: listAgreements,
    DraftAgreementV3: draft,
    FetchAgreementV3: (request: RecurringRequest): Answer => ({ status: 200, body: agreementView(findAgreement(request.msn, request.params['agreementId'] ?? '')) }),
    UpdateAgreementPatchV3: patch,
    acceptUsingPATCHV3: (request: RecurringRequest): Answer => {
      activate(findAgreement(request.msn, request.params['agreementId'] ?? ''));
      return { status: 204 };
    },
    ListChargesV3: listCharges,
    CreateChargeV3: createCharge,
    FetchChargeV3: (request: RecurringRequest): Answer => ({ status: 200, body: chargeView(findCharge(request.msn, request.params['chargeId'] ?? '', request.params['agreementId'])) }),
    FetchChargeByIdV3: (request: RecurringRequest): Answer => ({ status: 200, body: chargeView(findCharge(request.msn, request.params['chargeId'] ?? '')) }),
    CancelChargeV3: cancelCharge,
    CaptureChargeV3: captureCharge,
    RefundChargeV3: refundCharge,
  } as const;

  function requireAgreement(agreementId: string): AgreementRecord {
    const agreement = byAgreementId(agreementId);
    if (agreement === undefined) throw new Error(`No agreement ${agreementId}`);
    sweep();
    return agreement;
  }

  function requirePending(agreement: AgreementRecord, action: string): void {
    if (agreement.status !== 'PENDING') throw new Error(`Agreement ${agreement.id} is ${agreement.status}; only a PENDING agreement can be ${action}`);
  }

  const userActions = {
    approve(agreementId: string): AgreementRecord {
      const agreement = requireAgreement(agreementId);
      requirePending(agreement, 'approved');
      activate(agreement);
      return agreement;
    },
    /** Guide: PENDING → STOPPED when the user declines. */
    reject(agreementId: string): AgreementRecord {
      const agreement = requireAgreement(agreementId);
      requirePending(agreement, 'rejected');
      agreement.status = 'STOPPED';
      agreement.stopMs = now().getTime();
      cancelOpenCharges(agreement);
      emitAgreement(agreement, 'recurring.agreement-rejected.v1');
      return agreement;
    },
    expire(agreementId: string): AgreementRecord {
      const agreement = requireAgreement(agreementId);
      requirePending(agreement, 'expired');
      expireAgreement(agreement);
      return agreement;
    },
    /** The user stops an ACTIVE agreement in the app. */
    stop(agreementId: string): AgreementRecord {
      const agreement = requireAgreement(agreementId);
      if (agreement.status !== 'ACTIVE') throw new Error(`Agreement ${agreement.id} is ${agreement.status}; only an ACTIVE agreement can be stopped by the user`);
      stop(agreement);
      return agreement;
    },
  };

  /** Attempts every PENDING or DUE charge whose due day (in Norway) has come. */
  function processCharges(): void {
    sweep();
    const today = osloDate(now());
    for (const charge of charges.values()) {
      if ((charge.status !== 'PENDING' && charge.status !== 'DUE') || charge.due > today) continue;
      const agreement = agreements.get(key(charge.msn, charge.agreementId));
      if (agreement === undefined || agreement.status !== 'ACTIVE') continue;
      const problem = failure(charge, agreement);
      if (problem === null) succeed(charge);
      else if (today >= addDays(charge.due, charge.retryDays)) fail(charge, problem);
      else charge.status = 'DUE';
    }
  }

  /**
   * An ACTIVE agreement as an earlier run of the simulator had it (its state is in memory only):
   * the same id and terms, no webhook, no charge. Only an id the simulator has not seen.
   */
  function restore(input: RestoredAgreement & { msn: string }): void {
    if (!/^agr_[A-Za-z0-9]{1,64}$/.test(input.agreementId)) throw new TypeError(`restoreAgreement: agreementId must be an agr_… id, not ${JSON.stringify(input.agreementId)}`);
    if (agreements.has(key(input.msn, input.agreementId))) throw new TypeError(`restoreAgreement: agreement ${input.agreementId} already exists for merchant ${input.msn}`);
    const terms = RestoredTerms.safeParse(input);
    if (!terms.success) {
      const problems = terms.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new TypeError(`restoreAgreement: ${problems.join('; ')}`);
    }
    for (const [field, allowCustomScheme] of [
      ['merchantRedirectUrl', true],
      ['merchantAgreementUrl', false],
    ] as const) {
      const problem = urlProblem(terms.data[field], allowCustomScheme);
      if (problem !== null) throw new TypeError(`restoreAgreement: ${field}: ${problem}`);
    }
    const startMs = (input.start ?? now()).getTime();
    agreements.set(key(input.msn, input.agreementId), {
      msn: input.msn,
      id: input.agreementId,
      uuid: randomUUID(),
      status: 'ACTIVE',
      pricing: terms.data.pricing,
      interval: terms.data.interval,
      productName: terms.data.productName,
      productDescription: terms.data.productDescription,
      merchantRedirectUrl: terms.data.merchantRedirectUrl,
      merchantAgreementUrl: terms.data.merchantAgreementUrl,
      externalId: terms.data.externalId,
      campaign: undefined,
      initialChargeId: undefined,
      createdAtMs: startMs,
      // Never swept: only a PENDING agreement expires.
      expiresAtMs: startMs,
      startMs,
      stopMs: undefined,
    });
  }

  /** An agreement as the payer is asked to approve it, with its first charge when it has one (the app shows both). */
  function agreementForLanding(agreementId: string): { msn: string; agreement: Agreement; initialCharge?: { amount: number; description: string } } | undefined {
    sweep();
    const agreement = byAgreementId(agreementId);
    if (agreement === undefined) return undefined;
    const initial = agreement.initialChargeId === undefined ? undefined : charges.get(key(agreement.msn, agreement.initialChargeId));
    return { msn: agreement.msn, agreement: agreementView(agreement), ...(initial ? { initialCharge: { amount: initial.amount, description: initial.description } } : {}) };
  }

  return { handlers, sweep, userActions, processCharges, agreementForLanding, restore };
}
