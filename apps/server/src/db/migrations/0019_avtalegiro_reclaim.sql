-- A withdrawn AvtaleGiro claim (the invoice part-paid, the method changed and back) may be claimed again in a later file: one claim per invoice and file, and at most one out at the bank.
ALTER TABLE "avtalegiro_claim" DROP CONSTRAINT "avtalegiro_claim_pkey";--> statement-breakpoint
ALTER TABLE "avtalegiro_claim" ADD CONSTRAINT "avtalegiro_claim_aria_invoice_no_bank_file_id_pk" PRIMARY KEY("aria_invoice_no","bank_file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "avtalegiro_claim_live_idx" ON "avtalegiro_claim" USING btree ("aria_invoice_no") WHERE cancelled_in is null;
