CREATE TABLE "idempotent_request" (
	"scope" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"content_type" text,
	"body" text,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idempotent_request_expires_idx" ON "idempotent_request" USING btree ("expires_at");