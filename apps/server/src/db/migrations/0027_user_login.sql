CREATE TABLE "user_login" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"linked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_login_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
ALTER TABLE "login_attempt" ADD COLUMN "issuer" text;--> statement-breakpoint
ALTER TABLE "login_attempt" ADD COLUMN "purpose" text DEFAULT 'LOGIN' NOT NULL;--> statement-breakpoint
ALTER TABLE "login_attempt" ADD COLUMN "link_user_id" text;--> statement-breakpoint
ALTER TABLE "user_login" ADD CONSTRAINT "user_login_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_login_user_issuer_idx" ON "user_login" USING btree ("user_id","issuer");--> statement-breakpoint
-- Every user so far signed in with the one configured issuer, by app_user.identity_sub; its key is `account` (config OIDC_KEY). Erased users keep no login.
INSERT INTO "user_login" ("issuer", "subject", "user_id", "linked_at")
SELECT 'account', "identity_sub", "id", "created_at" FROM "app_user" WHERE "identity_sub" NOT LIKE 'erased:%';
