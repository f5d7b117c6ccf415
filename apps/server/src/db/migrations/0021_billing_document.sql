CREATE TABLE "billing_document" (
	"number" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"aria_invoice_no" bigint NOT NULL,
	"aria_account_no" bigint NOT NULL,
	"title_code" text NOT NULL,
	"issued_on" date NOT NULL,
	"amount_ore" integer NOT NULL,
	"source" text NOT NULL,
	"content" jsonb NOT NULL,
	"pdf" "bytea",
	"pdf_sha256" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_document_source_unique" UNIQUE("source")
);
--> statement-breakpoint
ALTER TABLE "billing_document" ADD CONSTRAINT "billing_document_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_document" ADD CONSTRAINT "billing_document_aria_account_no_account_aria_account_no_fk" FOREIGN KEY ("aria_account_no") REFERENCES "public"."account"("aria_account_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_document_account_idx" ON "billing_document" USING btree ("aria_account_no","issued_on");--> statement-breakpoint
CREATE INDEX "billing_document_invoice_idx" ON "billing_document" USING btree ("aria_invoice_no");