import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { errorCodes, errorMessages } from '@minside/domain';
import { AppError } from '../app-error.ts';

/** How long one command may take before the request gets a 503 instead of waiting on. */
const COMMAND_TIMEOUT_MS = 2_000;
/** How long start-up waits for the first connection; after that the app starts anyway (not ready). */
const FIRST_CONNECT_WAIT_MS = 3_000;

/**
 * One Redis connection per process. Commands fail at once while it is down (no offline queue)
 * and after COMMAND_TIMEOUT_MS when it hangs, so a request answers 503 in seconds instead of
 * waiting for a reconnect; ioredis keeps reconnecting in the background. `keyPrefix` is put
 * before every key, including the keys of Lua scripts.
 */
export async function connectRedis(options: { url: string; keyPrefix: string; log: FastifyBaseLogger }): Promise<Redis> {
  const redis = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    lazyConnect: true,
  });
  // Without a listener an 'error' event would crash the process; report an outage once, not per retry.
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    options.log.error({ err: error }, 'redis unavailable');
  });
  redis.on('ready', () => {
    if (reported) options.log.info('redis available again');
    reported = false;
  });
  // Not events.once: it would reject on the first 'error', and a retry may still succeed in time.
  const ready = new Promise((resolve) => redis.once('ready', resolve));
  redis.connect().catch(() => {
    // Reported by the 'error' listener; ioredis retries by its retry strategy.
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ready, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_CONNECT_WAIT_MS)))]).finally(() => clearTimeout(timer));
  return redis;
}

/** Replies that mean "Redis cannot serve right now" rather than "we sent a wrong command". */
const unavailableReplies = /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN|OOM|NOREPLICAS)\b/;

function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A ReplyError is Redis answering: only some answers mean it is away; the rest are our bugs.
  if (error.name === 'ReplyError') return unavailableReplies.test(error.message);
  return true;
}

/**
 * Runs Redis work for a request: an outage or timeout becomes the 503 every client knows
 * (`SERVICE_UNAVAILABLE`, Norwegian message), logged once here, never a 500.
 */
export function guarded(log: FastifyBaseLogger) {
  return async function redisCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isRedisUnavailable(error)) throw error;
      log.error({ err: error }, 'redis call failed: answering 503');
      throw new AppError(503, errorCodes.unavailable, errorMessages.unavailable);
    }
  };
}

export type RedisCall = ReturnType<typeof guarded>;
