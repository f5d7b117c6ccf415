-- One open purchase per buyer and offer (issue 20). Orders left open twice for the same offer
-- before this index (a burst, two tabs) keep only the newest open one; the others end as
-- cancelled. A late capture of an ended order is refunded by the ordering repair job.
UPDATE "subscription_order" SET "state" = 'cancelled' WHERE "state" in ('created', 'awaiting_payment') AND "id" NOT IN (
	SELECT DISTINCT ON ("user_id", "title_code", "aria_plan_id") "id" FROM "subscription_order"
	WHERE "state" in ('created', 'awaiting_payment')
	ORDER BY "user_id", "title_code", "aria_plan_id", ("state" = 'awaiting_payment') DESC, "updated_at" DESC, "id" DESC
);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_order_one_open_idx" ON "subscription_order" USING btree ("user_id","title_code","aria_plan_id") WHERE state in ('created', 'awaiting_payment');
