import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, lt, sum } from 'drizzle-orm';
import { VERIFICATION_CODE_MAX_ATTEMPTS, VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { idpSignup } from '../../db/schema.ts';
import { titleMail, type Mailer, type MailTitle } from '../../integrations/mail/index.ts';
import { codeMatches, newCodeFor } from '../../lib/one-time-code.ts';
import { occasionalSweep } from '../../lib/occasional-sweep.ts';
import { createVerifiedIdentityAccount, findIdentityAccountByEmail, normalizeEmail, type IdentityAccount } from './accounts.ts';
import { hashPassword } from './password.ts';

/**
 * Sign-up at the embedded provider with a proven address (issue 20): the form makes an
 * `idp_signup` row and mails a six-digit code; only that code, typed in the same login
 * interaction, makes the login (verified). Until then there is no account, so no login and no
 * session. An address that has a login already gets the same page and the same work (a
 * password hash, a row, one mail), but its owner is told by e-mail instead of being sent a code,
 * so the answer says nothing about who has a login here.
 */

export interface SignupDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  onSweepError?: (error: unknown) => void;
}

export interface SignupInput {
  interactionUid: string;
  email: string;
  password: string;
  givenName: string;
  familyName: string;
  /** The title whose name and colours the mail carries. */
  title: MailTitle;
}

export type SignupVerification =
  | { status: 'ok'; account: IdentityAccount }
  /** Wrong digits (or a sign-up whose code was never sent); `attemptsLeft` 0 ends it. */
  | { status: 'wrong'; attemptsLeft: number; email: string }
  /** Expired, used, out of tries, or not this interaction's sign-up. */
  | { status: 'invalid'; email: string | undefined }
  /** The code was right, but the address got a login meanwhile (another sign-up of the same person). */
  | { status: 'taken'; email: string };

const MINUTE_MS = 60_000;
/**
 * Guessing a code would make the login with the guesser's password, so codes per address are
 * limited beyond the five tries of each: at most this many sign-ups an hour per address (each
 * one a mail to it), and this many wrong codes a day per address over all its sign-ups. The same
 * for a taken address as for a free one, so the limits reveal nothing either.
 */
const SIGNUPS_PER_ADDRESS_PER_HOUR = 3;
const WRONG_CODES_PER_ADDRESS_PER_DAY = 20;

export const signupMessages = {
  codeWrong: (left: number) => `Koden er feil. Du har ${left} forsøk igjen.`,
  codeInvalid: 'Koden er ikke lenger gyldig. Opprett brukeren på nytt for å få en ny kode.',
} as const;

export function createSignups({ db, mailer, now, onSweepError }: SignupDeps) {
  const sweep = occasionalSweep({
    intervalMs: 60_000,
    // Rows are kept a day after they are made, not just until their code expires: the hourly
    // send limit and the daily wrong-code limit below count them.
    sweep: (at) => db.delete(idpSignup).where(lt(idpSignup.createdAt, new Date(at.getTime() - 24 * 60 * MINUTE_MS))),
    ...(onSweepError ? { onError: onSweepError } : {}),
  });

  return {
    /** The form was valid: a sign-up waiting for its code. Returns its id for the code form, or `throttled`. */
    async start(input: SignupInput): Promise<{ id: string; email: string } | { throttled: true }> {
      const email = normalizeEmail(input.email);
      const at = now();
      // The hash first, whether or not the address is taken: both answers take the same time.
      const passwordHash = await hashPassword(input.password);
      const [recent] = await db
        .select({ n: count() })
        .from(idpSignup)
        .where(and(eq(idpSignup.email, email), gt(idpSignup.createdAt, new Date(at.getTime() - 60 * MINUTE_MS))));
      if ((recent?.n ?? 0) >= SIGNUPS_PER_ADDRESS_PER_HOUR) return { throttled: true };
      const existing = await findIdentityAccountByEmail(db, email);
      const id = randomUUID();
      const { code, codeHash } = newCodeFor(id);
      await db.transaction(async (tx) => {
        await tx.insert(idpSignup).values({
          id,
          interactionUid: input.interactionUid,
          email,
          passwordHash,
          givenName: input.givenName,
          familyName: input.familyName,
          codeHash,
          mailed: !existing,
          createdAt: at,
          expiresAt: new Date(at.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS),
        });
        await mailer.enqueue(
          tx,
          existing
            ? {
                to: email,
                title: input.title,
                kind: 'signupAccountExists',
                ...titleMail(input.title, {
                  heading: 'Du har allerede en bruker',
                  subject: `Noen prøvde å opprette en bruker på Min Side hos ${input.title.name} med e-postadressen din`,
                  paragraphs: [
                    `Noen prøvde nettopp å opprette en ny bruker på Min Side hos ${input.title.name} med denne e-postadressen. Du har allerede en bruker, så ingen ny ble opprettet.`,
                    'Var det deg, logger du inn med e-postadressen og passordet du har. Var det ikke deg, trenger du ikke gjøre noe.',
                  ],
                }),
              }
            : {
                to: email,
                title: input.title,
                kind: 'signupCode',
                ...titleMail(input.title, {
                  heading: 'Bekreft e-postadressen din',
                  subject: `Koden din for å opprette bruker på Min Side hos ${input.title.name}`,
                  paragraphs: [
                    `Noen, sannsynligvis du, vil opprette en bruker på Min Side hos ${input.title.name} med denne e-postadressen. Skriv inn denne koden for å bekrefte at e-postadressen er din:`,
                    code,
                    `Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter. Har du ikke bedt om den, kan du se bort fra e-posten: uten koden blir ingen bruker opprettet.`,
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

    /** The code typed on the code form of interaction `interactionUid`. */
    async verify(input: { interactionUid: string; id: string; code: string }): Promise<SignupVerification> {
      const at = now();
      return db.transaction(async (tx): Promise<SignupVerification> => {
        const [row] = await tx.select().from(idpSignup).where(eq(idpSignup.id, input.id)).for('update');
        if (!row || row.interactionUid !== input.interactionUid) return { status: 'invalid', email: undefined };
        if (row.usedAt || row.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS || row.expiresAt.getTime() <= at.getTime()) return { status: 'invalid', email: row.email };
        const [tried] = await tx
          .select({ n: sum(idpSignup.attempts) })
          .from(idpSignup)
          .where(and(eq(idpSignup.email, row.email), gt(idpSignup.createdAt, new Date(at.getTime() - 24 * 60 * MINUTE_MS))));
        if (Number(tried?.n ?? 0) >= WRONG_CODES_PER_ADDRESS_PER_DAY) return { status: 'invalid', email: row.email };
        // A sign-up for an address with a login has no code anyone received: every try is wrong.
        if (!row.mailed || !codeMatches(row.id, input.code, row.codeHash)) {
          const attempts = row.attempts + 1;
          await tx.update(idpSignup).set({ attempts }).where(eq(idpSignup.id, row.id));
          return { status: 'wrong', attemptsLeft: VERIFICATION_CODE_MAX_ATTEMPTS - attempts, email: row.email };
        }
        await tx.update(idpSignup).set({ usedAt: at }).where(eq(idpSignup.id, row.id));
        const account = await createVerifiedIdentityAccount(tx, { id: randomUUID(), email: row.email, passwordHash: row.passwordHash, givenName: row.givenName, familyName: row.familyName });
        return account ? { status: 'ok', account } : { status: 'taken', email: row.email };
      });
    },
  };
}

export type Signups = ReturnType<typeof createSignups>;
