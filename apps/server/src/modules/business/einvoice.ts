import type { z } from 'zod';
import { eq } from 'drizzle-orm';
import type { EinvoiceRecipient, einvoiceRecipientBodySchema } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { einvoiceRecipient } from '../../db/schema.ts';
import type { AdminContext } from './company-record.ts';

/**
 * Where the company's invoices go as EHF (issue 23): one row per company subscription, set by its
 * admin. Billing reads it when it issues an invoice; nothing here touches the seats or members.
 */
export function createBusinessEinvoice({ db, now }: { db: Db; now: () => Date }) {
  return {
    /** GET /api/business/einvoice: where the company's EHF invoices go, or null (paper or PDF by e-mail). */
    async einvoice(ctx: AdminContext): Promise<EinvoiceRecipient | null> {
      const [row] = await db.select().from(einvoiceRecipient).where(eq(einvoiceRecipient.subscriptionId, ctx.subscriptionId));
      return row ? { organizationNumber: row.organizationNumber, companyName: row.companyName, street: row.street, postalCode: row.postalCode, town: row.town, reference: row.reference } : null;
    },

    /**
     * PUT /api/business/einvoice: invoices issued from now on are addressed to the company as EHF
     * (issue 23); those already issued stay as they were issued.
     */
    async setEinvoice(ctx: AdminContext, body: z.output<typeof einvoiceRecipientBodySchema>): Promise<EinvoiceRecipient> {
      const values = { ...body, reference: body.reference ?? null, updatedAt: now() };
      await db
        .insert(einvoiceRecipient)
        .values({ subscriptionId: ctx.subscriptionId, ...values })
        .onConflictDoUpdate({ target: einvoiceRecipient.subscriptionId, set: values });
      return { organizationNumber: values.organizationNumber, companyName: values.companyName, street: values.street, postalCode: values.postalCode, town: values.town, reference: values.reference };
    },

    /** DELETE /api/business/einvoice: back to invoices by e-mail. */
    async clearEinvoice(ctx: AdminContext): Promise<void> {
      await db.delete(einvoiceRecipient).where(eq(einvoiceRecipient.subscriptionId, ctx.subscriptionId));
    },
  };
}
