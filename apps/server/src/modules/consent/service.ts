import { desc, eq } from 'drizzle-orm';
import { CONSENT_HISTORY_LIMIT, consentSourceSchema, errorCodes, type ConsentRecord, type ConsentState, type ConsentUpdateBody } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { consentChoice } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

export interface ConsentDeps {
  db: Db;
  now: () => Date;
  isOfferedTitle: (titleCode: string) => boolean;
}

type Row = typeof consentChoice.$inferSelect;

function toRecord(row: Row): ConsentRecord {
  return {
    choices: { analytics: row.analytics, marketing: row.marketing, personalisation: row.personalisation },
    source: consentSourceSchema.parse(row.source),
    titleCode: row.titleCode,
    givenAt: row.givenAt.toISOString(),
  };
}

/**
 * A signed-in user's consent: every change is a new row, so the privacy pages can show what
 * was given when; the newest row is what holds now. Only the user's own rows are ever read.
 */
export function createConsentService({ db, now, isOfferedTitle }: ConsentDeps) {
  async function stateOf(userId: string): Promise<ConsentState> {
    const rows = await db.select().from(consentChoice).where(eq(consentChoice.userId, userId)).orderBy(desc(consentChoice.id)).limit(CONSENT_HISTORY_LIMIT);
    const history = rows.map(toRecord);
    return { current: history[0] ?? null, history };
  }

  return {
    getConsent: stateOf,

    /** Stores the choice unless it is the one that already holds (a repeated save adds no history). */
    async recordConsent(userId: string, body: ConsentUpdateBody): Promise<ConsentState> {
      const titleCode = body.titleCode?.toUpperCase() ?? null;
      if (titleCode && !isOfferedTitle(titleCode)) {
        throw new AppError(400, errorCodes.unknownTitle, `Fant ingen avis med koden ${titleCode}.`);
      }
      const { choices } = body;
      await db.transaction(async (tx) => {
        const [latest] = await tx.select().from(consentChoice).where(eq(consentChoice.userId, userId)).orderBy(desc(consentChoice.id)).limit(1);
        const unchanged = latest && latest.analytics === choices.analytics && latest.marketing === choices.marketing && latest.personalisation === choices.personalisation;
        if (unchanged) return;
        await tx.insert(consentChoice).values({ userId, ...choices, source: body.source, titleCode, givenAt: now() });
      });
      return stateOf(userId);
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
