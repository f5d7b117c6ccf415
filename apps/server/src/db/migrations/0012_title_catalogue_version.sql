CREATE TABLE "title_catalogue_version" (
	"version" integer PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"source" text NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
