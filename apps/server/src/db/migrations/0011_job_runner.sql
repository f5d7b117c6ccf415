CREATE TABLE "job_run" (
	"id" text PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"slot" text NOT NULL,
	"trigger" text NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"outcome" text NOT NULL,
	"error" text,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "job_state" (
	"job" text PRIMARY KEY NOT NULL,
	"running_run_id" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "job_run_slot_idx" ON "job_run" USING btree ("job","slot");--> statement-breakpoint
CREATE INDEX "job_run_job_started_idx" ON "job_run" USING btree ("job","started_at");