DROP INDEX "credit_set_off_waiting_idx";--> statement-breakpoint
ALTER TABLE "credit_set_off" ADD COLUMN "handed_over_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "credit_set_off_waiting_idx" ON "credit_set_off" USING btree ("subscription_id") WHERE aria_invoice_no is null and handed_over_at is null;