import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Agreement,
  AuthorizationTokenResponse,
  Charge,
  CreateChargeRequest,
  CreateChargeResponse,
  CreatePaymentRequest,
  CreatePaymentResponse,
  DraftAgreementRequest,
  DraftAgreementResponse,
  EpaymentProblem,
  EpaymentWebhookEvent,
  GetPaymentEventLogResponse,
  GetPaymentResponse,
  RecurringProblem,
  RegisterWebhookRequest,
  RegisterWebhookResponse,
  VippsContractError,
  WebhooksProblem,
  contractSources,
  createVippsClient,
  matchOperation,
  operationPath,
  operations,
} from '../src/index.ts';
import type { Operation } from '../src/index.ts';
import { DAY, answerViolations, closeRigsAfterAll, credentials, manualClock, requestViolations, shopUrl, startReceiver, startRig, unique } from './support.ts';

closeRigsAfterAll();

// ── the documented bodies (examples.md, copied from the pinned sources) ─────────────────────

const documented = {
  token: {
    token_type: 'Bearer',
    expires_in: '86398',
    ext_expires_in: '0',
    expires_on: '1495271273',
    not_before: '1495184574',
    resource: '00000002-0000-0000-c000-000000000000',
    access_token: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1Ni',
  },
  createPayment: {
    amount: { currency: 'NOK', value: 1000 },
    paymentMethod: { type: 'WALLET' },
    customer: { phoneNumber: '4791234567' },
    reference: 'acme-shop-123-order123abc',
    returnUrl: 'https://yourwebsite.come/redirect?reference=abcc123',
    userFlow: 'WEB_REDIRECT',
    paymentDescription: 'One pair of socks',
  },
  getPayment: {
    aggregate: {
      authorizedAmount: { currency: 'NOK', value: 49900 },
      cancelledAmount: { currency: 'NOK', value: 49900 },
      capturedAmount: { currency: 'NOK', value: 0 },
      refundedAmount: { currency: 'NOK', value: 0 },
    },
    amount: { currency: 'NOK', value: 49900 },
    state: 'AUTHORIZED',
    paymentMethod: { type: 'WALLET' },
    profile: {},
    pspReference: '37c34d8c-2649-448e-864b-060d5d93e4c4',
    reference: 'acme-shop-123-order123abc',
  },
  events: [
    {
      reference: 'acme-shop-123-order123abc',
      pspReference: '83b3fdb0-9547-4ec5-bdb7-5600ce70e792',
      name: 'CREATED',
      amount: { currency: 'NOK', value: 49900 },
      timestamp: '2023-03-27T10:51:44.5333258Z',
      idempotencyKey: '19986263-dedf-4b8e-a424-8d042eee4013',
      success: true,
    },
    {
      reference: 'acme-shop-123-order123abc',
      pspReference: '1304787731',
      name: 'AUTHORIZED',
      amount: { currency: 'NOK', value: 49900 },
      timestamp: '2023-03-27T10:51:59.378Z',
      idempotencyKey: '19986263-dedf-4b8e-a424-8d042eee4013',
      success: true,
    },
    { reference: 'acme-shop-123-order123abc', pspReference: '2019200034', name: 'CANCELLED', amount: { currency: 'NOK', value: 750 }, timestamp: '2023-03-27T10:52:15.616Z', success: true },
  ],
  webhook: {
    msn: '123456',
    reference: '24ab7cd6ef658155992',
    pspReference: '1234567891',
    name: 'AUTHORIZED',
    amount: { currency: 'NOK', value: 35000 },
    timestamp: '2023-08-14T12:48:46.260Z',
    idempotencyKey: '49ca711a9487112e1def',
    success: true,
  },
  epaymentProblem: { type: 'http://example.com', title: 'string', detail: 'string', status: 400, traceId: 'string' },
  draftAgreement: {
    pricing: { type: 'LEGACY', amount: 2500, currency: 'NOK' },
    interval: { unit: 'MONTH', count: 1 },
    merchantRedirectUrl: 'https://example.com/redirect',
    merchantAgreementUrl: 'https://example.com/agreement',
    phoneNumber: '4791234567',
    productName: 'MyNews Digital',
  },
  draftAgreementResponseGuide: {
    vippsConfirmationUrl: 'https://api.vipps.no/dwo-api-application/v1/deeplink/vippsgateway?v=2/token=eyJraWQiOiJqd3RrZXkiLCJhbGciOiJSUzI1NiJ9',
    agreementId: 'agr_TGSuPyV',
  },
  agreementGuide: {
    id: 'agr_ADbq4JK',
    created: '2018-08-22T12:59:56Z',
    start: '2018-08-22T13:00:00Z',
    stop: null,
    status: 'ACTIVE',
    productName: 'Premier League subscription',
    productDescription: 'Access to all games of English top football',
    pricing: { type: 'LEGACY', amount: 49900, currency: 'NOK' },
    interval: { unit: 'MONTH', count: 2, text: 'every 2 months' },
    campaign: null,
    merchantAgreementUrl: 'https://www.merchant.no/subscriptions/1234/',
    uuid: '6080c099-d7f2-43ef-a82b-2991ccc3a239',
    countryCode: 'NO',
  },
  charge: {
    id: 'chr_WCVbcA',
    status: 'REFUNDED',
    amount: 1000,
    type: 'RECURRING',
    transactionType: 'RESERVE_CAPTURE',
    currency: 'NOK',
    description: 'Premier League subscription: September',
    due: '2019-06-01T00:00:00Z',
    agreementId: 'agr_5kSeqz',
    externalId: 'external-id-2468',
    retryDays: 5,
    transactionId: '5001419121',
    summary: { captured: 1000, refunded: 600, cancelled: 0 },
    history: [
      { occurred: '2022-09-14T10:31:15Z', event: 'CREATE', amount: 1000, idempotencyKey: 'e80bd8c6-3b83-4583-a49c-847021fcd839', success: true },
      { occurred: '2022-09-16T06:01:00Z', event: 'RESERVE', amount: 1000, idempotencyKey: 'chr-4assY8f-agr_FJw2Anb-ProcessPayment', success: true },
    ],
  },
  createCharge: { amount: 49900, transactionType: 'DIRECT_CAPTURE', description: 'October', due: '2018-09-01', retryDays: 5 },
  recurringProblem: {
    type: 'https://developer.vippsmobilepay.com/docs/APIs/recurring-api/recurring-api-problems#validation-error',
    title: 'Bad Request',
    status: 400,
    detail: 'Input validation failed',
    instance: '/v3/agreements',
    contextId: 'f70b8bf7-c843-4bea-95d9-94725b19895f',
    extraDetails: [{ field: 'productName', text: 'must not be empty' }],
  },
  register: { url: 'https://example.com/mystore_website_backend', events: ['epayments.payment.authorized.v1'] },
  registerResponse: { id: '497f6eca-6276-4993-bfeb-53cbbbba6f08', secret: '090a478d-37ff-4e77-970e-d457aeb26a3a' },
  webhooksProblem: {
    type: '00-bb841c551513e233de8a01472013fa9f-542c71e40916a6ce-00',
    title: 'Bad Request',
    status: 400,
    detail: 'One or more validation errors occurred.',
    instance: '/v1/webhooks',
    traceId: '00-bb841c551513e233de8a01472013fa9f-542c71e40916a6ce-00',
    extraDetails: [{ name: 'url', reason: 'The property is required and cannot be null or empty.' }],
  },
};

describe('schemas', () => {
  it('accept the documented bodies', () => {
    expect(AuthorizationTokenResponse.safeParse(documented.token).success).toBe(true);
    expect(CreatePaymentRequest.safeParse(documented.createPayment).success).toBe(true);
    expect(CreatePaymentResponse.safeParse({ redirectUrl: 'https://landing.vipps.no?token=abc', reference: 'acme-shop-123-order123abc' }).success).toBe(true);
    expect(CreatePaymentResponse.safeParse({ reference: 'acme-shop-123-order123abc' }).success).toBe(true);
    expect(GetPaymentResponse.safeParse(documented.getPayment).success).toBe(true);
    expect(GetPaymentEventLogResponse.safeParse(documented.events).success).toBe(true);
    expect(EpaymentWebhookEvent.safeParse(documented.webhook).success).toBe(true);
    expect(EpaymentProblem.safeParse(documented.epaymentProblem).success).toBe(true);
    expect(DraftAgreementRequest.safeParse(documented.draftAgreement).success).toBe(true);
    expect(DraftAgreementRequest.safeParse({ ...documented.draftAgreement, pricing: { type: 'VARIABLE', suggestedMaxAmount: 3000, currency: 'NOK' } }).success).toBe(true);
    expect(
      DraftAgreementRequest.safeParse({ ...documented.draftAgreement, initialCharge: { amount: 100, currency: 'NOK', description: 'Initial Charge', transactionType: 'DIRECT_CAPTURE' } }).success,
    ).toBe(true);
    expect(DraftAgreementRequest.safeParse({ ...documented.draftAgreement, campaign: { type: 'PRICE_CAMPAIGN', price: 100, end: '2022/02/28T00:00:00Z' } }).success).toBe(true);
    expect(DraftAgreementResponse.safeParse(documented.draftAgreementResponseGuide).success).toBe(true);
    expect(Agreement.safeParse(documented.agreementGuide).success).toBe(true);
    expect(CreateChargeRequest.safeParse(documented.createCharge).success).toBe(true);
    expect(CreateChargeResponse.safeParse({ chargeId: 'chg_WCVbcAbRCmu2zk' }).success).toBe(true);
    expect(Charge.safeParse(documented.charge).success).toBe(true);
    expect(RecurringProblem.safeParse(documented.recurringProblem).success).toBe(true);
    expect(RecurringProblem.safeParse({ responseInfo: { responseCode: 401, responseMessage: 'Unauthorized' }, result: { message: 'Unauthorized' } }).success).toBe(true);
    expect(RegisterWebhookRequest.safeParse(documented.register).success).toBe(true);
    expect(RegisterWebhookResponse.safeParse(documented.registerResponse).success).toBe(true);
    expect(WebhooksProblem.safeParse(documented.webhooksProblem).success).toBe(true);
  });

  it('answers: extra fields pass (and are left out), a missing required field or an unknown enum value fails', () => {
    const extra = GetPaymentResponse.parse({ ...documented.getPayment, newField: 1, amount: { currency: 'NOK', value: 49900, added: true } });
    expect(extra).toEqual(documented.getPayment);
    const { aggregate: _aggregate, ...withoutAggregate } = documented.getPayment;
    expect(GetPaymentResponse.safeParse(withoutAggregate).error?.issues[0]?.path).toEqual(['aggregate']);
    expect(GetPaymentResponse.safeParse({ ...documented.getPayment, state: 'CAPTURED' }).success).toBe(false);
    expect(Charge.safeParse({ ...documented.charge, status: 'UNKNOWN' }).success).toBe(false);
    expect(Agreement.safeParse({ ...documented.agreementGuide, pricing: { type: 'FLEXIBLE', currency: 'NOK' } }).success).toBe(false);
    const { status: _status, ...withoutStatus } = documented.agreementGuide;
    expect(Agreement.safeParse(withoutStatus).success).toBe(false);
    // The spec's required list names `paymentAction`, which the API does not send; `name` is what it sends.
    const [created] = documented.events;
    expect(GetPaymentEventLogResponse.safeParse([{ ...created, name: undefined }]).success).toBe(false);
    expect(AuthorizationTokenResponse.safeParse({ ...documented.token, expires_in: 86398 }).success).toBe(false);
  });

  it('requests carry the documented cross-field rules', () => {
    const problems = (value: unknown) => CreatePaymentRequest.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));
    expect(problems({ ...documented.createPayment, paymentMethod: { type: 'CARD' }, userFlow: 'QR' })).toEqual(['userFlow']);
    expect(problems({ ...documented.createPayment, userFlow: 'PUSH_MESSAGE', customer: undefined })).toEqual(['customer']);
    expect(problems({ ...documented.createPayment, returnUrl: undefined })).toEqual(['returnUrl']);
    expect(problems({ ...documented.createPayment, customer: { phoneNumber: '4791234567', customerToken: 'x' } })).toEqual(['customer']);
    expect(problems({ ...documented.createPayment, reference: 'short' })).toEqual(['reference']);
    expect(CreateChargeRequest.safeParse({ ...documented.createCharge, due: '2018-02-30' }).success).toBe(false);
    expect(CreateChargeRequest.safeParse({ ...documented.createCharge, description: 'x'.repeat(46) }).success).toBe(false);
    expect(DraftAgreementRequest.safeParse({ ...documented.draftAgreement, pricing: { type: 'VARIABLE', currency: 'NOK' } }).error?.issues[0]?.path).toEqual(['pricing', 'suggestedMaxAmount']);
    expect(RegisterWebhookRequest.safeParse({ ...documented.register, extra: 1 }).success).toBe(false);
  });
});

describe('operations', () => {
  const all: Operation[] = Object.values(operations);

  it('has one entry per operation of the pinned documents, keyed by its id', () => {
    for (const [key, operation] of Object.entries(operations)) expect(operation.id).toBe(key);
    expect(all.map((operation) => `${operation.method} ${operation.path}`)).toHaveLength(new Set(all.map((operation) => `${operation.method} ${operation.path}`)).size);
    expect(all.filter((operation) => operation.api === 'epayment')).toHaveLength(7);
    expect(all.filter((operation) => operation.api === 'recurring')).toHaveLength(12);
    expect(all.filter((operation) => operation.api === 'webhooks')).toHaveLength(3);
    expect(contractSources.map((source) => source.commit.slice(0, 7))).toEqual(['2b36ec5', 'e7a5c6e', '31a14f7', '3f6ac6b', 'd1c57d2']);
  });

  it('says where an Idempotency-Key is required and how long it may be', () => {
    const keyed = (api: string) =>
      all.filter((operation) => operation.api === api && operation.idempotencyKey?.required === true).map((operation) => [operation.id, operation.idempotencyKey?.maxLength]);
    expect(keyed('epayment')).toEqual([
      ['createPayment', 50],
      ['cancelPayment', 50],
      ['capturePayment', 50],
      ['refundPayment', 50],
    ]);
    expect(keyed('recurring').map(([id]) => id)).toEqual(['DraftAgreementV3', 'UpdateAgreementPatchV3', 'acceptUsingPATCHV3', 'CreateChargeV3', 'CancelChargeV3', 'CaptureChargeV3', 'RefundChargeV3']);
    expect(new Set(keyed('recurring').map(([, length]) => length))).toEqual(new Set([40]));
    expect(keyed('webhooks')).toEqual([]);
  });

  it('matches every path it fills in back to the same operation and parameters', () => {
    for (const operation of all) {
      const params = Object.fromEntries(Object.keys(operation.pathParams).map((name) => [name, name === 'id' ? '497f6eca-6276-4993-bfeb-53cbbbba6f08' : `${name}-a/b 1`]));
      const match = matchOperation(operation.method, operationPath(operation, params));
      expect(match?.operation.id).toBe(operation.id);
      expect(match?.params).toEqual(params);
    }
    expect(matchOperation('PUT', '/epayment/v1/payments')).toBeNull();
    expect(matchOperation('GET', '/epayment/v1/payments/a/b')).toBeNull();
  });
});

describe('client and simulator hold to the contract', () => {
  it('every request the client sent and every answer the simulator gave in a whole scenario', async () => {
    const { sim, client: makeClient, clock } = await startRig();
    const client = makeClient();
    const receiver = await startReceiver();
    const hook = await client.webhooks.register({ url: `${receiver.url}/vipps/webhook`, events: ['epayments.payment.captured.v1'] });
    await client.webhooks.list();

    const reference = unique('contract');
    await client.epayment.create(
      { amount: { currency: 'NOK', value: 10_000 }, paymentMethod: { type: 'WALLET' }, reference, returnUrl: shopUrl, userFlow: 'WEB_REDIRECT', paymentDescription: 'Kontrakt' },
      { idempotencyKey: unique('k') },
    );
    await client.epayment.forceApprove(reference, { customer: { phoneNumber: '4791234567' } });
    await client.epayment.capture(reference, { currency: 'NOK', value: 6_000 }, { idempotencyKey: unique('k') });
    await client.epayment.refund(reference, { currency: 'NOK', value: 1_000 }, { idempotencyKey: unique('k') });
    await client.epayment.cancel(reference, { idempotencyKey: unique('k') });
    await client.epayment.get(reference);
    await client.epayment.events(reference);
    await client.epayment.capture(reference, { currency: 'NOK', value: 1 }, { idempotencyKey: unique('k') }).catch(() => undefined); // a 400
    await client.epayment.get('contract-unknown').catch(() => undefined); // a 404

    const { agreementId } = await client.recurring.createAgreement(
      {
        pricing: { type: 'LEGACY', amount: 20_000, currency: 'NOK' },
        interval: { unit: 'YEAR', count: 1 },
        merchantRedirectUrl: shopUrl,
        merchantAgreementUrl: 'https://minside.example/abonnement',
        productName: 'Årsabonnement',
        initialCharge: { amount: 20_000, description: 'Første år', transactionType: 'RESERVE_CAPTURE' },
      },
      { idempotencyKey: unique('k') },
    );
    sim.approveAgreement(agreementId);
    await client.recurring.getAgreement(agreementId);
    await client.recurring.updateAgreement(agreementId, { productDescription: 'Alt innhold' }, { idempotencyKey: unique('k') });
    const due = new Date(clock().getTime() + 2 * DAY).toISOString().slice(0, 10);
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 20_000, transactionType: 'DIRECT_CAPTURE', description: 'År 2', due, retryDays: 3 },
      { idempotencyKey: unique('k') },
    );
    await client.recurring.getCharge(agreementId, chargeId);
    clock.advance(2 * DAY);
    await sim.processCharges();
    await client.recurring.refundCharge(agreementId, chargeId, { amount: 5_000, description: 'Kompensasjon' }, { idempotencyKey: unique('k') });
    await client.recurring.cancelCharge(agreementId, chargeId, { idempotencyKey: unique('k') }).catch(() => undefined); // a 400
    await client.recurring
      .createCharge(
        agreementId,
        { amount: 20_000, transactionType: 'DIRECT_CAPTURE', description: 'For tidlig', due: new Date(clock().getTime()).toISOString().slice(0, 10), retryDays: 0 },
        { idempotencyKey: unique('k') },
      )
      .catch(() => undefined);
    await client.recurring.updateAgreement(agreementId, { status: 'STOPPED' }, { idempotencyKey: unique('k') });
    await sim.flushWebhooks();
    await client.webhooks.delete(hook.id);
    await receiver.close();
    expect(receiver.received.map((callback) => callback.body['name'])).toEqual(['CAPTURED']);

    expect(requestViolations(sim.requests)).toEqual([]);
    expect(answerViolations(sim.requests)).toEqual([]);
    const asked = new Set(sim.requests.map((request) => matchOperation(request.method, request.path.split('?')[0] ?? '')?.operation.id));
    const offered = [
      'fetchAuthorizationTokenUsingPost',
      'createPayment',
      'getPayment',
      'getPaymentEventLog',
      'cancelPayment',
      'capturePayment',
      'refundPayment',
      'forceApprove',
      'DraftAgreementV3',
      'FetchAgreementV3',
      'UpdateAgreementPatchV3',
      'CreateChargeV3',
      'FetchChargeV3',
      'CancelChargeV3',
      'RefundChargeV3',
      'registerWebhook',
      'getAllWebhooks',
      'deleteWebhook',
    ];
    expect([...asked].sort()).toEqual([...offered].sort());
    expect(sim.requests.filter((request) => (request.response?.status ?? 0) >= 400).length).toBeGreaterThanOrEqual(4);
  });

  it('the check itself finds an answer with a field the contract lacks, or without one it requires', () => {
    const answer = { ...documented.getPayment, reference: 'acme-shop-123-order123abc' };
    const entry = (body: unknown) => ({ method: 'GET', path: '/epayment/v1/payments/acme-shop-123-order123abc', headers: {}, body: undefined, response: { status: 200, body } });
    expect(answerViolations([entry(answer)])).toEqual([]);
    expect(answerViolations([entry({ ...answer, friendly: 'extra' })])[0]?.problem).toMatch(/fields the contract does not have/);
    const { state: _state, ...withoutState } = answer;
    expect(answerViolations([entry(withoutState)])[0]?.problem).toMatch(/^state:/);
    expect(requestViolations([{ method: 'POST', path: '/epayment/v1/payments', headers: {}, body: {}, response: undefined }]).map((violation) => violation.problem)).toContain('no Idempotency-Key');
  });
});

describe('an answer that breaks the contract', () => {
  let url = '';
  let next: { status: number; body: string; contentType?: string } = { status: 200, body: '{}' };
  const server = createServer((request, response) => {
    if (request.url === '/accesstoken/get') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...documented.token, expires_on: String(Math.floor(new Date('2026-03-02T10:00:00Z').getTime() / 1000)) }));
      return;
    }
    response.writeHead(next.status, { 'content-type': next.contentType ?? 'application/json' }).end(next.body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const client = () => createVippsClient({ baseUrl: url, ...credentials, merchantSerialNumber: '123456', system: { name: 'minside', version: '1' }, now: manualClock(), retryDelaysMs: [1, 1] });

  it('is a VippsContractError naming the field', async () => {
    const { aggregate: _aggregate, ...broken } = documented.getPayment;
    next = { status: 200, body: JSON.stringify(broken) };
    const error = await client()
      .epayment.get('acme-shop-123-order123abc')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsContractError);
    expect(error).toMatchObject({ operation: 'getPayment', issues: [expect.stringMatching(/^aggregate: /)] });

    next = { status: 200, body: JSON.stringify({ ...documented.getPayment, state: 'CAPTURED' }) };
    await expect(client().epayment.get('acme-shop-123-order123abc')).rejects.toMatchObject({ issues: [expect.stringMatching(/^state: /)] });
    next = { status: 200, body: '<html>', contentType: 'text/html' };
    await expect(client().epayment.get('acme-shop-123-order123abc')).rejects.toBeInstanceOf(VippsContractError);
    next = { status: 200, body: JSON.stringify({ reference: 'acme-shop-123-order123abc' }) };
    await expect(client().epayment.create(CreatePaymentRequest.parse(documented.createPayment), { idempotencyKey: 'k-1' })).rejects.toMatchObject({ issues: ['status: expected 201, got 200'] });
  });

  it('but fields it does not know are fine', async () => {
    next = { status: 200, body: JSON.stringify({ ...documented.getPayment, surprise: { nested: true } }) };
    expect(await client().epayment.get('acme-shop-123-order123abc')).toEqual(documented.getPayment);
  });
});
