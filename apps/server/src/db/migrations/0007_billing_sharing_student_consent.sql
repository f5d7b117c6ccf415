CREATE TABLE "billing_secret" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_choice" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_choice_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"analytics" boolean NOT NULL,
	"marketing" boolean NOT NULL,
	"personalisation" boolean NOT NULL,
	"source" text NOT NULL,
	"title_code" text,
	"given_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discount_code" (
	"code" text PRIMARY KEY NOT NULL,
	"title_code" text,
	"description" text NOT NULL,
	"percent_off" integer,
	"amount_off_ore" integer,
	"periods" integer NOT NULL,
	"valid_until" date
);
--> statement-breakpoint
CREATE TABLE "family_invitation_link" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"replaced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoice_credit" (
	"id" text PRIMARY KEY NOT NULL,
	"aria_invoice_no" bigint NOT NULL,
	"amount_ore" integer NOT NULL,
	"reason" text NOT NULL,
	"payment_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"purpose" text NOT NULL,
	"method" text NOT NULL,
	"amount_ore" integer NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"user_id" text,
	"aria_account_no" bigint,
	"subscription_id" text,
	"aria_invoice_no" bigint,
	"provider" text NOT NULL,
	"provider_reference" text,
	"redirect_url" text,
	"return_url" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_agreement" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_agreement_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_expiry_month" integer,
	"card_expiry_year" integer,
	"phone_number" text,
	"bank_account_number" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_callback" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"status" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_callback_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_discount" (
	"subscription_id" text NOT NULL,
	"code" text NOT NULL,
	"remaining_periods" integer NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "subscription_discount_subscription_id_code_pk" PRIMARY KEY("subscription_id","code")
);
--> statement-breakpoint
CREATE TABLE "subscription_period" (
	"subscription_id" text NOT NULL,
	"period_from" date NOT NULL,
	"aria_invoice_no" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "subscription_period_subscription_id_period_from_pk" PRIMARY KEY("subscription_id","period_from")
);
--> statement-breakpoint
CREATE TABLE "test_provider_transaction" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount_ore" integer NOT NULL,
	"status" text NOT NULL,
	"merchant_reference" text NOT NULL,
	"agreement_id" text,
	"return_url" text NOT NULL,
	"description" text NOT NULL,
	"card" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_code" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "invoice_account_idx";--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "settled_by" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "student_verification" ADD COLUMN "reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consent_choice" ADD CONSTRAINT "consent_choice_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_invitation_link" ADD CONSTRAINT "family_invitation_link_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_credit" ADD CONSTRAINT "invoice_credit_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_credit" ADD CONSTRAINT "invoice_credit_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_aria_account_no_account_aria_account_no_fk" FOREIGN KEY ("aria_account_no") REFERENCES "public"."account"("aria_account_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreement" ADD CONSTRAINT "payment_agreement_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_callback" ADD CONSTRAINT "payment_callback_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_discount" ADD CONSTRAINT "subscription_discount_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_discount" ADD CONSTRAINT "subscription_discount_code_discount_code_code_fk" FOREIGN KEY ("code") REFERENCES "public"."discount_code"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_period" ADD CONSTRAINT "subscription_period_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_period" ADD CONSTRAINT "subscription_period_aria_invoice_no_invoice_aria_invoice_no_fk" FOREIGN KEY ("aria_invoice_no") REFERENCES "public"."invoice"("aria_invoice_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_code" ADD CONSTRAINT "verification_code_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_choice_user_idx" ON "consent_choice" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "family_invitation_link_member_idx" ON "family_invitation_link" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "invoice_credit_invoice_idx" ON "invoice_credit" USING btree ("aria_invoice_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_idempotency_key_idx" ON "payment" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payment_invoice_idx" ON "payment" USING btree ("aria_invoice_no");--> statement-breakpoint
CREATE INDEX "payment_pending_idx" ON "payment" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "payment_agreement_subscription_idx" ON "payment_agreement" USING btree ("subscription_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "test_provider_transaction_key_idx" ON "test_provider_transaction" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "verification_code_user_idx" ON "verification_code" USING btree ("user_id","purpose","created_at");--> statement-breakpoint
CREATE INDEX "invoice_account_idx" ON "invoice" USING btree ("aria_account_no","period_from","aria_invoice_no");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_idempotency_key_unique" UNIQUE("idempotency_key");