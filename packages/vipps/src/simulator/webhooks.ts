/**
 * The simulator's Webhooks area: registrations (register, list, delete) and delivery.
 *
 * Delivery follows api-guide.md: every event goes to each registration of the merchant that
 * subscribed to its type, signed with that registration's secret by `signWebhookRequest`; in order
 * per registration ("your server needs to accept all preceding requests… before any new
 * notifications"), so a failing callback holds back the ones after it; any answer but 2xx is
 * retried. The real API retries with exponential backoff for up to 7 days; the simulator's
 * pauses are `retryDelaysMs`, then it gives up, as the real one does after 7 days.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { RegisterWebhookRequest, RegisterWebhookResponse, WebhookList } from '../contract/webhooks.ts';
import { WEBHOOK_EVENT_TYPES } from '../contract/webhooks.ts';
import { signWebhookRequest } from '../signature.ts';
import { Refusal, urlProblem } from './support.ts';
import type { Answer } from './support.ts';

/** webhooks-api swagger (2023): "At most 5 webhooks can currently be registered per event". */
const MAX_REGISTRATIONS_PER_EVENT = 5;
const DELIVERY_TIMEOUT_MS = 10_000;

interface Registration {
  readonly id: string;
  readonly msn: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly secret: string;
}

export interface WebhookDelivery {
  readonly registrationId: string;
  readonly url: string;
  readonly eventType: string;
  /** The body as sent (parsed). */
  readonly body: unknown;
  /** `held` = waiting for `flushWebhooks()` (reorder knob). */
  outcome: 'queued' | 'held' | 'delivered' | 'failed' | 'dropped';
  attempts: number;
  /** Status of the last answer, if there was one. */
  lastStatus: number | undefined;
}

interface Job {
  readonly registration: Registration;
  readonly body: string;
  readonly delivery: WebhookDelivery;
}

export interface WebhookKnobs {
  duplicate: boolean;
  reorder: boolean;
  drop: boolean;
}

export interface WebhooksAreaOptions {
  now: () => Date;
  deliver: typeof fetch;
  knobs: WebhookKnobs;
  retryDelaysMs: readonly number[];
}

export interface WebhooksRequest {
  msn: string;
  params: Readonly<Record<string, string>>;
  body: unknown;
}

const KNOWN_EVENTS = new Set<string>(WEBHOOK_EVENT_TYPES);

export function createWebhooksArea({ now, deliver, knobs, retryDelaysMs }: WebhooksAreaOptions) {
  const registrations = new Map<string, Registration>();
  const queues = new Map<string, Job[]>();
  const workers = new Map<string, Promise<void>>();
  const held: Job[] = [];
  const deliveries: WebhookDelivery[] = [];
  const stopping = new AbortController();

  function register(request: WebhooksRequest): Answer {
    const body = request.body as RegisterWebhookRequest;
    const problem = urlProblem(body.url, false);
    if (problem !== null) throw new Refusal(400, 'validation-error', 'Bad Request', `url: ${problem}`, [{ name: 'url', reason: `The URL ${problem}.` }]);
    if (body.events.length === 0) {
      throw new Refusal(400, 'validation-error', 'Bad Request', 'events: at least one event is required', [{ name: 'events', reason: 'The property is required and cannot be null or empty.' }]);
    }
    body.events.forEach((event, index) => {
      if (!KNOWN_EVENTS.has(event)) {
        throw new Refusal(400, 'validation-error', 'Bad Request', `events[${index}]: unknown event type ${event}`, [{ name: `events[${index}]`, reason: `Unknown event type ${event}.` }]);
      }
      const taken = [...registrations.values()].filter((registration) => registration.msn === request.msn && registration.events.includes(event)).length;
      if (taken >= MAX_REGISTRATIONS_PER_EVENT) {
        throw new Refusal(400, 'limit-reached', 'Bad Request', `events[${index}]: at most ${MAX_REGISTRATIONS_PER_EVENT} webhooks can be registered per event`, [
          { name: `events[${index}]`, reason: `At most ${MAX_REGISTRATIONS_PER_EVENT} webhooks can be registered per event.` },
        ]);
      }
    });
    const registration: Registration = { id: randomUUID(), msn: request.msn, url: body.url, events: [...new Set(body.events)], secret: randomBytes(32).toString('base64') };
    registrations.set(registration.id, registration);
    const answer: RegisterWebhookResponse = { id: registration.id, secret: registration.secret };
    return { status: 201, body: answer };
  }

  function list(request: WebhooksRequest): Answer {
    const answer: WebhookList = {
      webhooks: [...registrations.values()].filter((registration) => registration.msn === request.msn).map(({ id, url, events }) => ({ id, url, events: [...events] })),
    };
    return { status: 200, body: answer };
  }

  function remove(request: WebhooksRequest): Answer {
    const registration = registrations.get(request.params['id'] ?? '');
    // Only 400 is documented; an unknown id answers 404 (NOT FOUND in the pinned documents).
    if (registration === undefined || registration.msn !== request.msn) {
      throw new Refusal(404, 'not-found', 'Not Found', `No webhook ${request.params['id'] ?? ''} for merchant ${request.msn}`);
    }
    registrations.delete(registration.id);
    return { status: 204 };
  }

  async function send(job: Job): Promise<void> {
    const target = new URL(job.registration.url);
    for (let attempt = 0; attempt <= retryDelaysMs.length; attempt += 1) {
      if (stopping.signal.aborted) break;
      job.delivery.attempts += 1;
      const headers = signWebhookRequest({
        secret: job.registration.secret,
        method: 'POST',
        pathAndQuery: `${target.pathname}${target.search}`,
        host: target.host,
        body: job.body,
        date: now(),
      });
      try {
        const response = await deliver(target, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: job.body,
          // "Can not be a URL that redirects": a redirect is a failed delivery.
          redirect: 'manual',
          signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        job.delivery.lastStatus = response.status;
        if (response.status >= 200 && response.status < 300) {
          job.delivery.outcome = 'delivered';
          return;
        }
      } catch {
        job.delivery.lastStatus = undefined;
      }
      const pause = retryDelaysMs[attempt];
      if (pause === undefined || stopping.signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    job.delivery.outcome = 'failed';
  }

  function enqueue(job: Job): void {
    job.delivery.outcome = 'queued';
    const id = job.registration.id;
    const queue = queues.get(id) ?? [];
    queues.set(id, queue);
    queue.push(job);
    if (workers.has(id)) return;
    const run = async () => {
      try {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await send(next);
      } finally {
        // In the same turn as the last shift: a job queued later starts a new worker.
        workers.delete(id);
      }
    };
    workers.set(id, run());
  }

  function emit(msn: string, eventType: string, payload: Record<string, unknown>): void {
    const body = JSON.stringify(payload);
    for (const registration of registrations.values()) {
      if (registration.msn !== msn || !registration.events.includes(eventType)) continue;
      const copies = knobs.duplicate ? 2 : 1;
      for (let copy = 0; copy < copies; copy += 1) {
        const delivery: WebhookDelivery = { registrationId: registration.id, url: registration.url, eventType, body: payload, outcome: 'queued', attempts: 0, lastStatus: undefined };
        deliveries.push(delivery);
        const job: Job = { registration, body, delivery };
        if (knobs.drop) {
          delivery.outcome = 'dropped';
        } else if (knobs.reorder) {
          delivery.outcome = 'held';
          held.push(job);
        } else {
          enqueue(job);
        }
      }
    }
  }

  /** Sends what the reorder knob held back, newest first, then waits for every queue to empty. */
  async function flush(): Promise<void> {
    for (const job of held.splice(0).reverse()) enqueue(job);
    while (workers.size > 0) await Promise.all([...workers.values()]);
  }

  async function close(): Promise<void> {
    stopping.abort();
    while (workers.size > 0) await Promise.all([...workers.values()]);
  }

  return { handlers: { registerWebhook: register, getAllWebhooks: list, deleteWebhook: remove }, emit, flush, close, deliveries: deliveries as ReadonlyArray<Readonly<WebhookDelivery>> };
}
