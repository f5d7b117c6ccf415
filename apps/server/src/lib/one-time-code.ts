import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_SEND_LIMIT,
  VERIFICATION_CODE_SEND_WINDOW_MINUTES,
  VERIFICATION_CODE_TTL_MINUTES,
  verificationCodeErrorCodes,
  verificationCodeMessages,
} from '@minside/domain';
import type { Tx } from '../db/client.ts';
import { appUser, verificationCode } from '../db/schema.ts';
import { AppError } from './app-error.ts';

/**
 * Six-digit codes sent by e-mail to prove an address (student and work e-mail). A code is
 * stored only as SHA-256 over its row id and the digits (a six-digit space cannot be kept
 * secret from someone holding the table, so the protection is the 15-minute life and the
 * five tries). Every function runs inside the caller's transaction.
 */
export type CodePurpose = 'student' | 'business' | 'connect';

const MINUTE_MS = 60_000;

function hashCode(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('base64url');
}

/**
 * A new six-digit code and what to store of it, for a row with id `id` outside
 * `verification_code` (a sign-up at the embedded provider has no user yet): the same digits,
 * hash and comparison as the codes below.
 */
export function newCodeFor(id: string): { code: string; codeHash: string } {
  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
  return { code, codeHash: hashCode(id, code) };
}

/** Whether `code` is the one whose hash was stored for row `id` (constant time). */
export function codeMatches(id: string, code: string, codeHash: string): boolean {
  const presented = Buffer.from(hashCode(id, code.trim()));
  const stored = Buffer.from(codeHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * A new code for the user at `email`, voiding the one before. Refused with 429 when the user
 * has had VERIFICATION_CODE_SEND_LIMIT codes for this purpose in the window: the user's row
 * is locked first, so two requests at once are counted one after the other.
 */
export async function issueCode(
  tx: Tx,
  input: { purpose: CodePurpose; userId: string; email: string; now: Date; /** Codes per user and purpose in the window; default VERIFICATION_CODE_SEND_LIMIT. */ sendLimit?: number },
): Promise<{ code: string; expiresAt: Date }> {
  const { purpose, userId, email, now, sendLimit = VERIFICATION_CODE_SEND_LIMIT } = input;
  await tx.select({ id: appUser.id }).from(appUser).where(eq(appUser.id, userId)).for('update');
  const windowStart = new Date(now.getTime() - VERIFICATION_CODE_SEND_WINDOW_MINUTES * MINUTE_MS);
  const [sent] = await tx
    .select({ n: count() })
    .from(verificationCode)
    .where(and(eq(verificationCode.userId, userId), eq(verificationCode.purpose, purpose), gt(verificationCode.createdAt, windowStart)));
  if ((sent?.n ?? 0) >= sendLimit) {
    throw new AppError(429, verificationCodeErrorCodes.tooManyCodes, verificationCodeMessages.tooManyCodes);
  }
  await tx
    .update(verificationCode)
    .set({ voidedAt: now })
    .where(and(eq(verificationCode.userId, userId), eq(verificationCode.purpose, purpose), isNull(verificationCode.usedAt), isNull(verificationCode.voidedAt)));
  const id = randomUUID();
  const { code, codeHash } = newCodeFor(id);
  const expiresAt = new Date(now.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
  await tx.insert(verificationCode).values({ id, purpose, userId, email, codeHash, attempts: 0, createdAt: now, expiresAt });
  return { code, expiresAt };
}

/**
 * Voids every open code for `purpose` sent to `email`, whoever asked for it: the reason to prove the
 * address is gone (a business invitation withdrawn, issue 25.15).
 */
export async function voidCodesSentTo(tx: Tx, input: { purpose: CodePurpose; email: string; now: Date }): Promise<void> {
  await tx
    .update(verificationCode)
    .set({ voidedAt: input.now })
    .where(and(eq(verificationCode.purpose, input.purpose), eq(verificationCode.email, input.email.toLowerCase()), isNull(verificationCode.usedAt), isNull(verificationCode.voidedAt)));
}

export type CodeClaim =
  /** No code was ever sent to this address for this user. */
  | { status: 'none' }
  /** Expired, used, replaced by a newer one, or voided by wrong tries. */
  | { status: 'invalid' }
  /** Wrong digits; the try is counted. `attemptsLeft` 0 means the code is now void. */
  | { status: 'wrong'; attemptsLeft: number }
  | { status: 'ok' };

/**
 * Checks `code` against the newest code sent to `email` for the user, with its row locked.
 * A wrong try is written (the caller must let the transaction commit before refusing); the
 * right one marks the code used, so the caller's work and the claim commit or fail together.
 */
export async function claimCode(tx: Tx, input: { purpose: CodePurpose; userId: string; email: string; code: string; now: Date }): Promise<CodeClaim> {
  const { purpose, userId, email, code, now } = input;
  const [row] = await tx
    .select()
    .from(verificationCode)
    .where(and(eq(verificationCode.userId, userId), eq(verificationCode.purpose, purpose), eq(verificationCode.email, email)))
    .orderBy(desc(verificationCode.createdAt))
    .limit(1)
    .for('update');
  if (!row) return { status: 'none' };
  if (row.usedAt || row.voidedAt || row.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS || row.expiresAt.getTime() <= now.getTime()) return { status: 'invalid' };
  if (!codeMatches(row.id, code, row.codeHash)) {
    const attempts = row.attempts + 1;
    const exhausted = attempts >= VERIFICATION_CODE_MAX_ATTEMPTS;
    await tx
      .update(verificationCode)
      .set({ attempts, ...(exhausted ? { voidedAt: now } : {}) })
      .where(eq(verificationCode.id, row.id));
    return { status: 'wrong', attemptsLeft: VERIFICATION_CODE_MAX_ATTEMPTS - attempts };
  }
  await tx.update(verificationCode).set({ usedAt: now }).where(eq(verificationCode.id, row.id));
  return { status: 'ok' };
}
