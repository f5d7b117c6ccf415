CREATE TABLE "einvoice_recipient" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"organization_number" text NOT NULL,
	"company_name" text NOT NULL,
	"street" text NOT NULL,
	"postal_code" text NOT NULL,
	"town" text NOT NULL,
	"reference" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_document" ADD COLUMN "ehf_delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "einvoice_recipient" ADD CONSTRAINT "einvoice_recipient_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;