-- Which Vipps MobilePay sales unit a payment or agreement was made with, for titles with their own (issue 22): every later call names the same one.
CREATE TABLE "vipps_merchant_reference" (
	"reference" text PRIMARY KEY NOT NULL,
	"merchant_serial_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
