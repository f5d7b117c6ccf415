CREATE TABLE "delivery_notice" (
	"segment_id" text PRIMARY KEY NOT NULL,
	"title_code" text NOT NULL,
	"issue_date" date NOT NULL,
	"postal_codes" text[] NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_notice_recipient" (
	"segment_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"postal_code" text NOT NULL,
	CONSTRAINT "delivery_notice_recipient_segment_id_subscription_id_pk" PRIMARY KEY("segment_id","subscription_id")
);
--> statement-breakpoint
ALTER TABLE "plan" ADD COLUMN "minimum_age" integer;--> statement-breakpoint
ALTER TABLE "delivery_notice_recipient" ADD CONSTRAINT "delivery_notice_recipient_segment_id_delivery_notice_segment_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."delivery_notice"("segment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_notice_recipient" ADD CONSTRAINT "delivery_notice_recipient_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscription"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_notice_title_date_idx" ON "delivery_notice" USING btree ("title_code","issue_date");--> statement-breakpoint
CREATE INDEX "delivery_notice_recipient_subscription_idx" ON "delivery_notice_recipient" USING btree ("subscription_id");