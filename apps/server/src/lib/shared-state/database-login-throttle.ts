import { and, count, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idpLoginFailure } from '../../db/schema.ts';
import { occasionalSweep } from '../occasional-sweep.ts';

/** More than this many attempts within the window, and a key is refused without checking the password. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
/** Rows older than this no longer count and are swept (at most once a minute per process). */
const RETENTION_MS = 60 * 60_000;

interface LoginAttempt {
  /** True when the e-mail or the IP already had the limit of failures within the window. */
  blocked: boolean;
  /** The password was right: this attempt is not a failure after all. */
  succeeded(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Counts the attempt as a failure *before* the password is checked, then looks at the
   * count. Requests sent in parallel therefore see each other: at most the limit get through,
   * however many arrive at once.
   */
  begin(email: string, ip: string): Promise<LoginAttempt>;
}

const keysOf = (email: string, ip: string) => [`email:${email}`, `ip:${ip}`];

/**
 * Password guessing throttle in the database, so every instance counts the same attempts.
 * Both keys count: one e-mail from many IPs (credential stuffing on one person) and one
 * IP trying many e-mails (spraying one password).
 */
export function createLoginThrottle(options: { db: Db; now: () => Date; onSweepError?: (error: unknown) => void }): LoginThrottle {
  const { db, now } = options;
  const sweep = occasionalSweep({
    intervalMs: 60_000,
    sweep: (at) => db.delete(idpLoginFailure).where(lt(idpLoginFailure.at, new Date(at.getTime() - RETENTION_MS))),
    ...(options.onSweepError ? { onError: options.onSweepError } : {}),
  });

  return {
    async begin(email, ip) {
      const at = now();
      const keys = keysOf(email, ip);
      const inserted = await db
        .insert(idpLoginFailure)
        .values(keys.map((key) => ({ key, at })))
        .returning({ id: idpLoginFailure.id });
      const ids = inserted.map((row) => row.id);
      const forget = async () => {
        await db.delete(idpLoginFailure).where(inArray(idpLoginFailure.id, ids));
      };
      const since = new Date(at.getTime() - LOGIN_FAILURE_WINDOW_MS);
      const counts = await db
        .select({ attempts: count() })
        .from(idpLoginFailure)
        .where(and(inArray(idpLoginFailure.key, keys), gt(idpLoginFailure.at, since)))
        .groupBy(idpLoginFailure.key);
      await sweep(at);
      // This attempt is in the count: blocked when the earlier failures alone reach the limit.
      const blocked = counts.some((row) => row.attempts > LOGIN_FAILURE_LIMIT);
      // A refused attempt never reached the password, so it is not a failure to count on.
      if (blocked) await forget();
      return { blocked, succeeded: forget };
    },
  };
}
