import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, sql, sum } from 'drizzle-orm';
import { formatInstant, VERIFICATION_CODE_MAX_ATTEMPTS, VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { idpAccount, idpPasswordReset, idpPayload } from '../../db/schema.ts';
import { titleMail, type Mailer, type MailTitle } from '../../integrations/mail/index.ts';
import { codeMatches, newCodeFor } from '../../lib/one-time-code.ts';
import { occasionalSweep } from '../../lib/occasional-sweep.ts';
import { findIdentityAccountByEmail, normalizeEmail } from './accounts.ts';
import { hashPassword } from './password.ts';

/**
 * "Glemt passord?" at the embedded provider: the address gets a six-digit code, and the code,
 * typed in the same login interaction together with a new password, sets that password, ends
 * every session and grant the login had (a thief who knew the old password is out), and signs
 * the person in. Modelled on the sign-up codes (signup.ts): the same code hashing, lifetime and
 * tries, a row and one mail for every request whether or not the address has a login (its owner
 * is told there is none instead of being sent a code), so the answer says nothing about who has
 * a login here.
 */

export interface PasswordResetDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  /** After a reset: the portal ends the sessions of the person with this login (`sub`). */
  afterReset?: (accountId: string) => Promise<void>;
  /** Failures of the sweep and of `afterReset`: the reset itself has happened, so they are only logged. */
  onError?: (error: unknown, message: string) => void;
}

export type PasswordResetOutcome =
  | { status: 'ok'; accountId: string }
  /** Wrong digits (or a reset for an address without a login, whose every code is wrong); `attemptsLeft` 0 ends it. */
  | { status: 'wrong'; attemptsLeft: number; email: string }
  /** Expired, used, out of tries, or not this interaction's reset. */
  | { status: 'invalid'; email: string | undefined };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Mails an hour to one address, and wrong codes a day over all its resets: the same limits as sign-up's. */
const RESETS_PER_ADDRESS_PER_HOUR = 3;
const WRONG_RESET_CODES_PER_ADDRESS_PER_DAY = 20;

export const passwordResetMessages = {
  codeRequired: 'Skriv inn koden på 6 siffer',
  codeWrong: (left: number) => `Koden er feil. Du har ${left} forsøk igjen.`,
  codeInvalid: 'Koden er ikke lenger gyldig. Be om en ny kode.',
  tooManyCodes: 'Det er bedt om for mange koder til denne e-postadressen. Vent en time og prøv igjen.',
  throttled: 'For mange forsøk. Vent et minutt og prøv igjen.',
} as const;

export function createPasswordResets({ db, mailer, now, afterReset, onError }: PasswordResetDeps) {
  const sweep = occasionalSweep({
    intervalMs: 60_000,
    // Kept a day, not only until the code expires: the limits per address count them.
    sweep: (at) => db.delete(idpPasswordReset).where(lt(idpPasswordReset.createdAt, new Date(at.getTime() - DAY_MS))),
    ...(onError ? { onError: (error: unknown) => onError(error, 'idp_password_reset sweep failed') } : {}),
  });

  return {
    /** "Send kode": a reset waiting for its code. Returns its id for the code form, or `throttled`. */
    async start(input: { interactionUid: string; email: string; title: MailTitle }): Promise<{ id: string; email: string } | { throttled: true }> {
      const email = normalizeEmail(input.email);
      const at = now();
      const [recent] = await db
        .select({ n: count() })
        .from(idpPasswordReset)
        .where(and(eq(idpPasswordReset.email, email), gt(idpPasswordReset.createdAt, new Date(at.getTime() - 60 * MINUTE_MS))));
      if ((recent?.n ?? 0) >= RESETS_PER_ADDRESS_PER_HOUR) return { throttled: true };
      const account = await findIdentityAccountByEmail(db, email);
      const id = randomUUID();
      const { code, codeHash } = newCodeFor(id);
      const { title } = input;
      await db.transaction(async (tx) => {
        await tx.insert(idpPasswordReset).values({
          id,
          interactionUid: input.interactionUid,
          email,
          accountId: account?.id ?? null,
          codeHash,
          mailed: account !== undefined,
          createdAt: at,
          expiresAt: new Date(at.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS),
        });
        await mailer.enqueue(
          tx,
          account
            ? {
                to: email,
                title,
                kind: 'passwordResetCode',
                ...titleMail(title, {
                  heading: 'Lag nytt passord',
                  subject: `Koden din for å lage nytt passord på Min Side hos ${title.name}`,
                  paragraphs: [
                    `Noen, sannsynligvis du, har bedt om å lage nytt passord for brukeren din på Min Side hos ${title.name}. Skriv inn denne koden sammen med det nye passordet:`,
                    code,
                    `Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter. Har du ikke bedt om den, kan du se bort fra e-posten: passordet ditt er ikke endret.`,
                  ],
                }),
              }
            : {
                to: email,
                title,
                kind: 'passwordResetNoAccount',
                ...titleMail(title, {
                  heading: 'Ingen bruker med denne e-postadressen',
                  subject: `Du ba om nytt passord på Min Side hos ${title.name}`,
                  paragraphs: [
                    `Noen ba nettopp om å lage nytt passord på Min Side hos ${title.name} med denne e-postadressen, men det finnes ingen bruker med den.`,
                    'Var det deg, har du kanskje logget inn med en annen e-postadresse før, eller så kan du opprette en ny bruker fra innloggingssiden. Var det ikke deg, trenger du ikke gjøre noe.',
                  ],
                }),
              },
        );
      });
      await sweep(at);
      // Sent now when SMTP is set, without the answer waiting for it (the outbox job retries).
      void mailer.deliverPending().catch(() => undefined);
      return { id, email };
    },

    /**
     * The code and the new password from the code form of interaction `interactionUid`. The
     * password is checked by the caller (the sign-up's rules) before a try is spent here.
     */
    async complete(input: { interactionUid: string; id: string; code: string; password: string; title: MailTitle }): Promise<PasswordResetOutcome> {
      const at = now();
      const outcome = await db.transaction(async (tx): Promise<PasswordResetOutcome> => {
        const [row] = await tx.select().from(idpPasswordReset).where(eq(idpPasswordReset.id, input.id)).for('update');
        if (!row || row.interactionUid !== input.interactionUid) return { status: 'invalid', email: undefined };
        if (row.usedAt || row.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS || row.expiresAt.getTime() <= at.getTime()) return { status: 'invalid', email: row.email };
        const [tried] = await tx
          .select({ n: sum(idpPasswordReset.attempts) })
          .from(idpPasswordReset)
          .where(and(eq(idpPasswordReset.email, row.email), gt(idpPasswordReset.createdAt, new Date(at.getTime() - DAY_MS))));
        if (Number(tried?.n ?? 0) >= WRONG_RESET_CODES_PER_ADDRESS_PER_DAY) return { status: 'invalid', email: row.email };
        if (!row.mailed || !row.accountId || !codeMatches(row.id, input.code, row.codeHash)) {
          const attempts = row.attempts + 1;
          await tx.update(idpPasswordReset).set({ attempts }).where(eq(idpPasswordReset.id, row.id));
          return { status: 'wrong', attemptsLeft: VERIFICATION_CODE_MAX_ATTEMPTS - attempts, email: row.email };
        }
        // The code proved the mailbox: the address counts as verified from now on.
        const [account] = await tx
          .update(idpAccount)
          .set({ passwordHash: await hashPassword(input.password), emailVerified: true })
          .where(eq(idpAccount.id, row.accountId))
          .returning({ id: idpAccount.id, email: idpAccount.email });
        // The login was erased since the code was sent.
        if (!account) return { status: 'invalid', email: row.email };
        // Single use, and every other code still open for the address dies with it.
        await tx
          .update(idpPasswordReset)
          .set({ usedAt: at })
          .where(and(eq(idpPasswordReset.email, row.email), isNull(idpPasswordReset.usedAt)));
        // Every session, grant and token of the login (oidc-provider's rows carry the account id), as account erasure does.
        await tx.delete(idpPayload).where(sql`${idpPayload.payload}->>'accountId' = ${account.id}`);
        await mailer.enqueue(tx, {
          to: account.email,
          title: input.title,
          kind: 'passwordChanged',
          ...titleMail(input.title, {
            heading: 'Passordet ditt er endret',
            subject: `Passordet ditt på Min Side hos ${input.title.name} er endret`,
            paragraphs: [
              `Passordet for brukeren din på Min Side hos ${input.title.name} ble endret ${formatInstant(at)} med en kode sendt til denne e-postadressen. Du er logget ut alle andre steder.`,
              'Var det ikke deg, ta kontakt med kundeservice med en gang.',
            ],
          }),
        });
        return { status: 'ok', accountId: account.id };
      });
      if (outcome.status === 'ok') {
        try {
          await afterReset?.(outcome.accountId);
        } catch (error) {
          onError?.(error, 'ending the portal sessions after a password reset failed');
        }
        void mailer.deliverPending().catch(() => undefined);
      }
      return outcome;
    },
  };
}

export type PasswordResets = ReturnType<typeof createPasswordResets>;
