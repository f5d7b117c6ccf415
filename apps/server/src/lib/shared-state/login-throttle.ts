import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS, type LoginThrottle } from './database-login-throttle.ts';
import type { RedisCall } from './redis.ts';

/**
 * The database throttle's rule in Redis: per key a sorted set of attempts scored by time (a
 * sliding window, like the rows' timestamps). In one script the attempt is added to both
 * keys and counted, and removed again when refused, so parallel requests on any instance see
 * each other exactly as with the database.
 */
const beginScript = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[4])
local blocked = false
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window)
  if redis.call('ZCARD', key) > limit then blocked = true end
end
if blocked then
  for _, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[3]) end
  return 1
end
return 0
`;

const keysOf = (email: string, ip: string) => [`login-failure:email:${email}`, `login-failure:ip:${ip}`];

export function redisLoginThrottle(redis: Redis, call: RedisCall, now: () => Date): LoginThrottle {
  return {
    async begin(email, ip) {
      const keys = keysOf(email, ip);
      const attempt = randomUUID();
      const blocked = await call(() => redis.eval(beginScript, keys.length, ...keys, String(now().getTime()), String(LOGIN_FAILURE_WINDOW_MS), attempt, String(LOGIN_FAILURE_LIMIT)));
      return {
        blocked: blocked === 1,
        async succeeded() {
          await call(() => keys.reduce((transaction, key) => transaction.zrem(key, attempt), redis.multi()).exec());
        },
      };
    },
  };
}
