import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.ts';
import { billingDocument } from '../../../db/schema.ts';
import type { BillingDocumentContent } from './content.ts';
import { renderEhf } from './ehf.ts';

/**
 * EHF delivery (issue 23): every invoice and credit note issued to a company that chose EHF is
 * written once to the outbox folder as `{number}.xml` (PEPPOL BIS Billing 3.0), where the access
 * point the publisher contracts with picks it up. Which access point, and how it fetches, is
 * configuration (EHF_OUTBOX_DIR and the access point's own agent); no access point's API is in code.
 */
export function createEhfOutbox({ db, dir, now, log }: { db: Db; dir: string; now: () => Date; log: FastifyBaseLogger }) {
  /** The documents whose buyer is a company: they have an EHF document. */
  const hasEhf = sql`${billingDocument.content} -> 'buyer' ->> 'organizationNumber' is not null`;
  return {
    /** Writes the EHF documents not yet written; returns how many. The `ehf-outbox` job. */
    async deliverPending(): Promise<{ written: number }> {
      const due = await db
        .select({ number: billingDocument.number, content: billingDocument.content })
        .from(billingDocument)
        .where(and(isNull(billingDocument.ehfDeliveredAt), hasEhf))
        .orderBy(asc(billingDocument.number))
        .limit(500);
      if (due.length === 0) return { written: 0 };
      await mkdir(dir, { recursive: true });
      let written = 0;
      for (const document of due) {
        try {
          const xml = renderEhf(document.content as BillingDocumentContent);
          // Written under a temporary name and renamed: the access point never picks up half a file.
          // At least once: a crash between the rename and the mark writes it again, with the same
          // name and content, which access points take as the same document.
          const target = path.join(dir, `${document.number}.xml`);
          await writeFile(`${target}.part`, xml, 'utf8');
          await rename(`${target}.part`, target);
          await db.update(billingDocument).set({ ehfDeliveredAt: now() }).where(eq(billingDocument.number, document.number));
          written += 1;
        } catch (error) {
          // One document EHF refuses (a placeholder organisation number) must not hold back the others.
          log.error({ err: error, number: document.number }, 'could not write an EHF document; skipped');
        }
      }
      log.info({ written, dir }, 'EHF documents written for the access point');
      return { written };
    },

    /** The EHF document of one of the account's documents, or null when its buyer is no company. */
    async ehfOf(ariaAccountNo: number, number: number): Promise<string | null> {
      const [document] = await db
        .select({ content: billingDocument.content })
        .from(billingDocument)
        .where(and(eq(billingDocument.number, number), eq(billingDocument.ariaAccountNo, ariaAccountNo), hasEhf));
      return document ? renderEhf(document.content as BillingDocumentContent) : null;
    },
  };
}

export type EhfOutbox = ReturnType<typeof createEhfOutbox>;
