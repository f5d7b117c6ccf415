-- One pending data export per user (issue 20). Pending exports asked for twice before this index
-- keep only the newest; the others end as expired (no file was ever made for them).
UPDATE "data_request" SET "status" = 'expired' WHERE "kind" = 'export' AND "status" = 'pending' AND "id" NOT IN (
	SELECT DISTINCT ON ("user_id") "id" FROM "data_request"
	WHERE "kind" = 'export' AND "status" = 'pending'
	ORDER BY "user_id", "requested_at" DESC, "id" DESC
);
--> statement-breakpoint
CREATE UNIQUE INDEX "data_request_one_pending_export_idx" ON "data_request" USING btree ("user_id") WHERE kind = 'export' and status = 'pending';
