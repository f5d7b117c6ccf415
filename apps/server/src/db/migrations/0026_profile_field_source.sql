CREATE TABLE "profile_field_source" (
	"user_id" text NOT NULL,
	"field" text NOT NULL,
	"source" text NOT NULL,
	"issuer_label" text,
	"verified" boolean NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "profile_field_source_user_id_field_pk" PRIMARY KEY("user_id","field")
);
--> statement-breakpoint
ALTER TABLE "profile_field_source" ADD CONSTRAINT "profile_field_source_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE no action ON UPDATE no action;