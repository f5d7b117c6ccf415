ALTER TABLE "user_session" ADD COLUMN "issuer" text;--> statement-breakpoint
ALTER TABLE "user_session" ADD COLUMN "subject" text;