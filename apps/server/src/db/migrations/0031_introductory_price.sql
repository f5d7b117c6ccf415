ALTER TABLE "subscription" ADD COLUMN "intro_price_ore" integer;--> statement-breakpoint
ALTER TABLE "subscription" ADD COLUMN "intro_months" integer;--> statement-breakpoint
ALTER TABLE "subscription" ADD COLUMN "intro_ends_on" date;