CREATE TABLE "credit_set_off" (
	"id" text PRIMARY KEY NOT NULL,
	"credit_note_number" bigint NOT NULL,
	"subscription_id" text NOT NULL,
	"amount_ore" integer NOT NULL,
	"aria_invoice_no" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"set_off_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credit_set_off" ADD CONSTRAINT "credit_set_off_credit_note_number_billing_document_number_fk" FOREIGN KEY ("credit_note_number") REFERENCES "public"."billing_document"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_set_off" ADD CONSTRAINT "credit_set_off_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_set_off" ADD CONSTRAINT "credit_set_off_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_set_off_waiting_idx" ON "credit_set_off" USING btree ("subscription_id") WHERE aria_invoice_no is null;--> statement-breakpoint
CREATE INDEX "credit_set_off_invoice_idx" ON "credit_set_off" USING btree ("aria_invoice_no");