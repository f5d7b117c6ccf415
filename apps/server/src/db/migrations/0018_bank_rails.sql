CREATE SEQUENCE "public"."avtalegiro_mandate_no_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "avtalegiro_claim" (
	"aria_invoice_no" bigint PRIMARY KEY NOT NULL,
	"bank_file_id" text NOT NULL,
	"kid" text NOT NULL,
	"amount_ore" integer NOT NULL,
	"due_on" date NOT NULL,
	"cancelled_in" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_file" (
	"id" text PRIMARY KEY NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"data_transmitter" text NOT NULL,
	"transmission_number" text NOT NULL,
	"data_recipient" text NOT NULL,
	"sha256" text NOT NULL,
	"file_name" text,
	"status" text NOT NULL,
	"transactions" integer DEFAULT 0 NOT NULL,
	"amount_ore" bigint DEFAULT 0 NOT NULL,
	"nets_date" date,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bank_transaction" (
	"bank_file_id" text NOT NULL,
	"seq" integer NOT NULL,
	"title_code" text,
	"transaction_type" integer NOT NULL,
	"kid" text NOT NULL,
	"amount_ore" bigint NOT NULL,
	"settled_on" date,
	"bank_date" date,
	"debit_account" text,
	"assignment_account" text,
	"aria_invoice_no" bigint,
	"payment_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"open_amount_ore" bigint DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_note" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bank_transaction_bank_file_id_seq_pk" PRIMARY KEY("bank_file_id","seq")
);
--> statement-breakpoint
ALTER TABLE "payment_agreement" ADD COLUMN "bank_notice" boolean;--> statement-breakpoint
ALTER TABLE "avtalegiro_claim" ADD CONSTRAINT "avtalegiro_claim_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avtalegiro_claim" ADD CONSTRAINT "avtalegiro_claim_bank_file_id_bank_file_id_fk" FOREIGN KEY ("bank_file_id") REFERENCES "public"."bank_file"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avtalegiro_claim" ADD CONSTRAINT "avtalegiro_claim_cancelled_in_bank_file_id_fk" FOREIGN KEY ("cancelled_in") REFERENCES "public"."bank_file"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transaction" ADD CONSTRAINT "bank_transaction_bank_file_id_bank_file_id_fk" FOREIGN KEY ("bank_file_id") REFERENCES "public"."bank_file"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "avtalegiro_claim_kid_idx" ON "avtalegiro_claim" USING btree ("kid","due_on");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_file_transmission_idx" ON "bank_file" USING btree ("direction","kind","data_transmitter","transmission_number");--> statement-breakpoint
CREATE INDEX "bank_transaction_open_idx" ON "bank_transaction" USING btree ("reason","resolved_at");--> statement-breakpoint
CREATE INDEX "bank_transaction_kid_idx" ON "bank_transaction" USING btree ("kid");--> statement-breakpoint
CREATE INDEX "payment_agreement_reference_idx" ON "payment_agreement" USING btree ("method","provider_agreement_id");