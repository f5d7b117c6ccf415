CREATE TABLE "idp_signup" (
	"id" text PRIMARY KEY NOT NULL,
	"interaction_uid" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"code_hash" text NOT NULL,
	"mailed" boolean NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "idp_signup_expires_idx" ON "idp_signup" USING btree ("expires_at");--> statement-breakpoint
-- Users from before this release were accepted as they came: their address counts as proven from their first day.
UPDATE "app_user" SET "email_verified_at" = "created_at" WHERE "email_verified_at" IS NULL;
