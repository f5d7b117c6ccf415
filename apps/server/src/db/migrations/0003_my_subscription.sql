CREATE TABLE "cancellation_survey" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"reason_code" text NOT NULL,
	"reason_text" text,
	"action_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan" (
	"aria_plan_id" text PRIMARY KEY NOT NULL,
	"title_code" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"plan_product_type" text NOT NULL,
	"billing_period" text NOT NULL,
	"price_ore" integer NOT NULL,
	"features" jsonb NOT NULL,
	"next_price_ore" integer,
	"next_price_from" date,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"sold" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_offer_acceptance" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"offer_code" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_change" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" text,
	"kind" text NOT NULL,
	"from_status_code" integer,
	"to_status_code" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription" ADD COLUMN "resume_status_code" integer;--> statement-breakpoint
ALTER TABLE "cancellation_survey" ADD CONSTRAINT "cancellation_survey_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_offer_acceptance" ADD CONSTRAINT "retention_offer_acceptance_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_change" ADD CONSTRAINT "subscription_change_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_change" ADD CONSTRAINT "subscription_change_actor_user_id_app_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cancellation_survey_subscription_idx" ON "cancellation_survey" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "plan_title_idx" ON "plan" USING btree ("title_code");--> statement-breakpoint
CREATE INDEX "subscription_change_subscription_idx" ON "subscription_change" USING btree ("subscription_id","at");