import { and, count, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idpLoginFailure } from '../../db/schema.ts';

/** At this many failures within the window, a key is refused without checking the password. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
/** Rows older than this are swept (at most once a minute per process): they no longer count. */
const RETENTION_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

export interface LoginThrottle {
  /** True when the e-mail or the IP has reached the limit within the window. */
  isBlocked(email: string, ip: string): Promise<boolean>;
  recordFailure(email: string, ip: string): Promise<void>;
}

const keysOf = (email: string, ip: string) => [`email:${email}`, `ip:${ip}`];

/**
 * Password guessing throttle in the database, so every instance counts the same attempts.
 * Both keys count: one e-mail from many IPs (credential stuffing on one person) and one
 * IP trying many e-mails (spraying one password).
 */
export function createLoginThrottle(options: { db: Db; now: () => Date; onSweepError?: (error: unknown) => void }): LoginThrottle {
  const { db, now } = options;
  let lastSweep = 0;

  async function sweep(at: Date): Promise<void> {
    if (at.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = at.getTime();
    try {
      await db.delete(idpLoginFailure).where(lt(idpLoginFailure.at, new Date(at.getTime() - RETENTION_MS)));
    } catch (error) {
      options.onSweepError?.(error);
    }
  }

  return {
    async isBlocked(email, ip) {
      const since = new Date(now().getTime() - LOGIN_FAILURE_WINDOW_MS);
      const counts = await db
        .select({ failures: count() })
        .from(idpLoginFailure)
        .where(and(inArray(idpLoginFailure.key, keysOf(email, ip)), gt(idpLoginFailure.at, since)))
        .groupBy(idpLoginFailure.key);
      return counts.some((row) => row.failures >= LOGIN_FAILURE_LIMIT);
    },
    async recordFailure(email, ip) {
      const at = now();
      await db.insert(idpLoginFailure).values(keysOf(email, ip).map((key) => ({ key, at })));
      await sweep(at);
    },
  };
}
