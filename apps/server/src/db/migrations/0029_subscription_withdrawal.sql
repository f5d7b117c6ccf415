CREATE TABLE "subscription_withdrawal" (
	"order_id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"user_id" text NOT NULL,
	"agreed_on" date NOT NULL,
	"deadline" date NOT NULL,
	"withdrawn_at" timestamp with time zone NOT NULL,
	"paid_ore" integer NOT NULL,
	"refunds" jsonb NOT NULL,
	"refunds_open" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_withdrawal" ADD CONSTRAINT "subscription_withdrawal_order_id_subscription_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."subscription_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_withdrawal" ADD CONSTRAINT "subscription_withdrawal_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_withdrawal_subscription_idx" ON "subscription_withdrawal" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "subscription_withdrawal_open_idx" ON "subscription_withdrawal" USING btree ("refunds_open");