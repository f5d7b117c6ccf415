CREATE TABLE "consent_permission_choice" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_permission_choice_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"permission" text NOT NULL,
	"granted" boolean NOT NULL,
	"title_code" text,
	"given_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_request" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"archive" "bytea",
	"size_bytes" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "consent_permission_choice" ADD CONSTRAINT "consent_permission_choice_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_request" ADD CONSTRAINT "data_request_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_permission_choice_user_idx" ON "consent_permission_choice" USING btree ("user_id","permission","id");--> statement-breakpoint
CREATE INDEX "data_request_user_idx" ON "data_request" USING btree ("user_id","kind","requested_at");--> statement-breakpoint
CREATE INDEX "data_request_due_idx" ON "data_request" USING btree ("kind","status","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_request_one_erasure_idx" ON "data_request" USING btree ("user_id") WHERE kind = 'erasure';