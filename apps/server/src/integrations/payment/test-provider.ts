import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { formatKroner, paymentProviderLabels } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { testProviderTransaction } from '../../db/schema.ts';
import { escapeHtml } from '../mail/templates.ts';
import { CallbackSignatureError, type CallbackEvent, type PaymentProvider, type ProviderAgreement, type ProviderStatus, type ProviderTransaction } from './provider.ts';

/**
 * The built-in test payment provider (the embedded default, PAYMENT_PROVIDER=test). It behaves
 * like a hosted-page provider: createPayment answers a redirect to its page at
 * /_dev/pay/{id}; the payer's button there changes the transaction, the provider POSTs a
 * signed callback to the merchant's webhook and sends the browser back to the return URL.
 * It keeps its own books in `test_provider_transaction`; the portal never reads them.
 */

const TEST_PROVIDER_NAME = 'test';
const TEST_CALLBACK_PATH = '/api/payment/callback/test';
const TEST_SIGNATURE_HEADER = 'x-test-provider-signature';
/** A callback older than this is refused even with a good signature (replay window). */
const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

type Row = typeof testProviderTransaction.$inferSelect;

/** The test cards the hosted page offers for storing a card. */
const TEST_CARDS = {
  '4242': { brand: 'Visa', last4: '4242', expiryMonth: 12, expiryYear: 2030 },
  '5555': { brand: 'Mastercard', last4: '4444', expiryMonth: 6, expiryYear: 2029 },
} as const;

export interface TestProviderOptions {
  db: Db;
  /** HMAC key shared with the merchant's webhook (billing_secret `test_provider_webhook`). */
  webhookSecret: string;
  now: () => Date;
  /** Sends a callback to the merchant's webhook; set once the app exists (app.inject in-process). */
  deliver?: (path: string, body: string, headers: Record<string, string>) => Promise<void>;
}

function signTestCallback(secret: string, body: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

const callbackBodySchema = z.object({
  eventId: z.string().min(1),
  transactionId: z.string().min(1),
  merchantReference: z.string().min(1),
  status: z.enum(['CREATED', 'AUTHORIZED', 'CAPTURED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'REFUNDED']),
});

export type TestProvider = PaymentProvider & {
  setDelivery(deliver: NonNullable<TestProviderOptions['deliver']>): void;
  registerHostedPage(app: FastifyInstance): Promise<void>;
};

export function createTestProvider(options: TestProviderOptions): TestProvider {
  const { db, webhookSecret, now } = options;
  let deliver = options.deliver;

  const find = async (id: string): Promise<Row | undefined> => (await db.select().from(testProviderTransaction).where(eq(testProviderTransaction.id, id)))[0];
  const view = (row: Row): ProviderTransaction => ({
    providerReference: row.id,
    status: row.status as ProviderStatus,
    agreementId: row.kind === 'AGREEMENT' && row.status === 'AUTHORIZED' ? row.id : row.agreementId,
  });
  async function mustFind(id: string): Promise<Row> {
    const row = await find(id);
    if (!row) throw new Error(`test provider: no transaction ${id}`);
    return row;
  }
  async function setStatus(id: string, from: ProviderStatus[], to: ProviderStatus, extra: Partial<Row> = {}): Promise<Row> {
    const row = await mustFind(id);
    if (!from.includes(row.status as ProviderStatus)) return row;
    const [updated] = await db
      .update(testProviderTransaction)
      .set({ ...extra, status: to, updatedAt: now() })
      .where(eq(testProviderTransaction.id, id))
      .returning();
    return updated ?? row;
  }
  async function insertOnce(values: typeof testProviderTransaction.$inferInsert): Promise<Row> {
    await db.insert(testProviderTransaction).values(values).onConflictDoNothing({ target: testProviderTransaction.idempotencyKey });
    const [row] = await db.select().from(testProviderTransaction).where(eq(testProviderTransaction.idempotencyKey, values.idempotencyKey));
    if (!row) throw new Error('test provider: insert lost');
    return row;
  }

  async function sendCallback(row: Row): Promise<void> {
    if (!deliver) return;
    const body = JSON.stringify({ eventId: randomUUID(), transactionId: row.id, merchantReference: row.merchantReference, status: row.status });
    await deliver(TEST_CALLBACK_PATH, body, { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: signTestCallback(webhookSecret, body, now()) });
  }

  const provider: TestProvider = {
    name: TEST_PROVIDER_NAME,
    storesCards: true,

    setDelivery(next) {
      deliver = next;
    },

    async createPayment(input) {
      const at = now();
      const row = await insertOnce({
        id: `tp_${randomUUID()}`,
        idempotencyKey: input.idempotencyKey,
        kind: input.kind,
        method: input.method,
        amountOre: input.amountOre,
        status: 'CREATED',
        merchantReference: input.merchantReference,
        agreementId: null,
        returnUrl: input.returnUrl,
        description: input.description,
        card: null,
        createdAt: at,
        updatedAt: at,
      });
      return { providerReference: row.id, redirectUrl: `/_dev/pay/${encodeURIComponent(row.id)}` };
    },

    async verifyCallback({ headers, rawBody }): Promise<CallbackEvent> {
      const header = headers[TEST_SIGNATURE_HEADER];
      const match = typeof header === 'string' ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header) : null;
      if (!match) throw new CallbackSignatureError('missing or malformed signature');
      const [, timestamp = '', mac = ''] = match;
      const expected = createHmac('sha256', webhookSecret).update(`${timestamp}.${rawBody}`).digest();
      if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) throw new CallbackSignatureError('bad signature');
      if (Math.abs(now().getTime() - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) throw new CallbackSignatureError('stale signature');
      let parsed: z.infer<typeof callbackBodySchema>;
      try {
        parsed = callbackBodySchema.parse(JSON.parse(rawBody));
      } catch {
        throw new CallbackSignatureError('malformed body');
      }
      return { eventId: parsed.eventId, providerReference: parsed.transactionId, merchantReference: parsed.merchantReference, status: parsed.status };
    },

    // The test provider is idempotent by state (capturing a CAPTURED transaction answers it); the key is not needed.
    async capture(providerReference, amountOre) {
      const row = await mustFind(providerReference);
      if (amountOre > row.amountOre) throw new Error('test provider: capture above the authorised amount');
      return view(await setStatus(providerReference, ['AUTHORIZED'], 'CAPTURED'));
    },

    async refund(providerReference) {
      return view(await setStatus(providerReference, ['CAPTURED'], 'REFUNDED'));
    },

    async cancel(providerReference) {
      return view(await setStatus(providerReference, ['CREATED', 'AUTHORIZED'], 'CANCELLED'));
    },

    async lookup(providerReference) {
      return view(await mustFind(providerReference));
    },

    async lookupByMerchantReference(merchantReference) {
      const [row] = await db.select().from(testProviderTransaction).where(eq(testProviderTransaction.merchantReference, merchantReference));
      return row ? view(row) : null;
    },

    async agreement(agreementId): Promise<ProviderAgreement | null> {
      const row = await find(agreementId);
      if (!row || row.kind !== 'AGREEMENT' || row.status !== 'AUTHORIZED') return null;
      const method = row.method === 'VIPPS' ? 'VIPPS' : 'SWEDBANK-PPG';
      if (method === 'SWEDBANK-PPG' && !row.card) return null;
      return { agreementId: row.id, method, card: row.card ?? null, phoneNumber: method === 'VIPPS' ? '+47 ••• •• 789' : null };
    },

    async chargeAgreement(input) {
      const agreement = await find(input.agreementId);
      const at = now();
      const usable = agreement?.kind === 'AGREEMENT' && agreement.status === 'AUTHORIZED';
      const row = await insertOnce({
        id: `tp_${randomUUID()}`,
        idempotencyKey: input.idempotencyKey,
        kind: 'CHARGE',
        method: agreement?.method ?? 'SWEDBANK-PPG',
        amountOre: input.amountOre,
        // A recurring charge is captured at once, or fails when the agreement is gone.
        status: usable ? 'CAPTURED' : 'FAILED',
        merchantReference: input.merchantReference,
        agreementId: input.agreementId,
        returnUrl: '',
        description: input.description,
        card: null,
        createdAt: at,
        updatedAt: at,
      });
      return view(row);
    },

    async registerHostedPage(app) {
      await app.register(async (scope) => {
        await scope.register(fastifyFormbody);
        // Our references only (`tp_<uuid>`, the seed's `tp_demo_<persona>`): a NUL byte or free text never reaches the database.
        const params = z.object({ id: z.string().regex(/^tp_[A-Za-z0-9_-]{1,77}$/) });
        const form = z.object({
          action: z.enum(['approve', 'cancel', 'fail', 'timeout']),
          card: z.enum(['4242', '5555', 'missing']).optional(),
          lostCallback: z.string().optional(),
        });

        scope.get('/_dev/pay/:id', { schema: { hide: true } }, async (request, reply) => {
          const parsed = params.safeParse(request.params);
          const row = parsed.success ? await find(parsed.data.id) : undefined;
          reply.header('content-security-policy', pageCsp).header('cache-control', 'no-store');
          if (!row || row.kind === 'CHARGE') return reply.status(404).type('text/html; charset=utf-8').send(page('Fant ikke betalingen', '<p>Denne betalingen finnes ikke hos testleverandøren.</p>'));
          return reply.type('text/html; charset=utf-8').send(hostedPage(row));
        });

        scope.post('/_dev/pay/:id', { schema: { hide: true } }, async (request, reply) => {
          const parsed = params.safeParse(request.params);
          const input = form.safeParse(request.body);
          const row = parsed.success ? await find(parsed.data.id) : undefined;
          reply.header('content-security-policy', pageCsp).header('cache-control', 'no-store');
          if (!row || !input.success) return reply.status(400).type('text/html; charset=utf-8').send(page('Ugyldig valg', '<p>Betalingen eller valget er ukjent.</p>'));
          if (row.status !== 'CREATED') return reply.redirect(row.returnUrl, 303);
          const next: ProviderStatus = { approve: 'AUTHORIZED', cancel: 'CANCELLED', fail: 'FAILED', timeout: 'TIMEOUT' }[input.data.action] as ProviderStatus;
          const chosen = input.data.card ?? '4242';
          // Storing a card: the "missing" test card is approved but leaves no card on the agreement.
          const card = row.kind === 'AGREEMENT' && row.method === 'SWEDBANK-PPG' && next === 'AUTHORIZED' && chosen !== 'missing' ? TEST_CARDS[chosen] : null;
          const updated = await setStatus(row.id, ['CREATED'], next, { card });
          if (!input.data.lostCallback) await sendCallback(updated);
          return reply.redirect(updated.returnUrl, 303);
        });
      });
    },
  };
  return provider;
}

const pageCsp = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – testbetaling</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f3f4f6; color: #111827; margin: 0; padding: 1rem; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  .note { background: #fef3c7; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  .amount { font-size: 1.6rem; font-weight: 700; }
  .buttons { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; margin-top: 1rem; }
  button { font: inherit; padding: .75rem; border-radius: 8px; border: 1px solid #9ca3af; background: #fff; cursor: pointer; }
  button[value=approve] { background: #15803d; border-color: #15803d; color: #fff; font-weight: 600; }
  button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  label { display: block; margin-top: .75rem; }
  select { font: inherit; padding: .4rem; width: 100%; margin-top: .25rem; }
</style></head>
<body><main>${body}</main></body></html>`;
}

function hostedPage(row: Row): string {
  const label = row.method === 'VIPPS' ? paymentProviderLabels.VIPPS : paymentProviderLabels['SWEDBANK-PPG'];
  const agreement = row.kind === 'AGREEMENT';
  const heading = agreement ? (row.method === 'VIPPS' ? 'Godkjenn Vipps-avtale' : 'Lagre betalingskort') : `Betal med ${label}`;
  if (row.status !== 'CREATED') {
    return page(heading, `<h1>${escapeHtml(heading)}</h1><p>Denne betalingen er allerede behandlet.</p><p><a href="${escapeHtml(row.returnUrl)}">Tilbake til Min Side</a></p>`);
  }
  const cardChoice =
    agreement && row.method === 'SWEDBANK-PPG'
      ? `<label for="card">Testkort</label>
<select id="card" name="card">
  <option value="4242">Visa som slutter på 4242</option>
  <option value="5555">Mastercard som slutter på 4444</option>
  <option value="missing">Kort som ikke finnes (gir «Finner ikke kortdetaljer»)</option>
</select>`
      : '';
  return page(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p class="note">Testbetaling: ingen ekte penger eller kort brukes.</p>
<dl>
  <dt>Betalingsmåte</dt><dd>${escapeHtml(label)}</dd>
  <dt>Gjelder</dt><dd>${escapeHtml(row.description)}</dd>
  ${agreement ? '' : `<dt>Beløp</dt><dd class="amount">${escapeHtml(formatKroner(row.amountOre, { withOre: true }))}</dd>`}
</dl>
<form method="post" action="/_dev/pay/${encodeURIComponent(row.id)}">
  ${cardChoice}
  <label><input type="checkbox" name="lostCallback" value="on"> Ikke send varsel til butikken (simulerer et tapt varsel)</label>
  <div class="buttons">
    <button type="submit" name="action" value="approve">Godkjenn</button>
    <button type="submit" name="action" value="cancel">Avbryt</button>
    <button type="submit" name="action" value="fail">Feil</button>
    <button type="submit" name="action" value="timeout">Tidsavbrudd</button>
  </div>
</form>`,
  );
}
