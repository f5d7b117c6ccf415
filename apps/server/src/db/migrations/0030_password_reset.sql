CREATE TABLE "idp_password_reset" (
	"id" text PRIMARY KEY NOT NULL,
	"interaction_uid" text NOT NULL,
	"email" text NOT NULL,
	"account_id" text,
	"code_hash" text NOT NULL,
	"mailed" boolean NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "idp_password_reset_email_created_idx" ON "idp_password_reset" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "idp_password_reset_created_idx" ON "idp_password_reset" USING btree ("created_at");