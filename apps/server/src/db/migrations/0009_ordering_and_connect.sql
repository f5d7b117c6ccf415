CREATE TABLE "connect_request" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"aria_account_no" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"assigned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "connectable_account" (
	"aria_account_no" bigint PRIMARY KEY NOT NULL,
	"contact_email" text NOT NULL,
	"contact_phone_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_by_user_id" text
);
--> statement-breakpoint
CREATE TABLE "subscription_order" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"user_id" text NOT NULL,
	"title_code" text NOT NULL,
	"aria_plan_id" text NOT NULL,
	"plan_name" text NOT NULL,
	"plan_product_type" text NOT NULL,
	"billing_period" text NOT NULL,
	"offer_code" text,
	"amount_now_ore" integer NOT NULL,
	"first_period_months" integer NOT NULL,
	"price_later_ore" integer NOT NULL,
	"later_period_months" integer NOT NULL,
	"delivery_address" jsonb,
	"paper_starts_on" date,
	"state" text NOT NULL,
	"payment_method" text,
	"payment_id" text,
	"payment_attempts" integer DEFAULT 0 NOT NULL,
	"last_payment_status" text,
	"subscription_id" text,
	"failure_code" text,
	"started_on" date,
	"first_period_end" date,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connect_request" ADD CONSTRAINT "connect_request_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectable_account" ADD CONSTRAINT "connectable_account_aria_account_no_account_aria_account_no_fk" FOREIGN KEY ("aria_account_no") REFERENCES "public"."account"("aria_account_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectable_account" ADD CONSTRAINT "connectable_account_claimed_by_user_id_app_user_id_fk" FOREIGN KEY ("claimed_by_user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_order" ADD CONSTRAINT "subscription_order_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_order" ADD CONSTRAINT "subscription_order_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_order" ADD CONSTRAINT "subscription_order_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connect_request_user_idx" ON "connect_request" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "connectable_account_phone_idx" ON "connectable_account" USING btree ("contact_phone_key");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_order_key_idx" ON "subscription_order" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "subscription_order_payment_idx" ON "subscription_order" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "subscription_order_state_idx" ON "subscription_order" USING btree ("state","updated_at");