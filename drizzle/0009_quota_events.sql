CREATE TABLE "quota_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quota_events_subject_key" UNIQUE("kind","subject_id")
);
--> statement-breakpoint
ALTER TABLE "quota_events" ADD CONSTRAINT "quota_events_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quota_events_profile_idx" ON "quota_events" USING btree ("profile_id","kind","created_at" DESC NULLS LAST);--> statement-breakpoint
-- What was created before the quotas had their own record counts as it always did.
INSERT INTO "quota_events" ("profile_id", "kind", "subject_id", "created_at")
SELECT "profile_id", 'mandate_created', "id", "created_at" FROM "mandates"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "quota_events" ("profile_id", "kind", "subject_id", "created_at")
SELECT "requester_profile_id", 'match_request_sent', "id", "created_at" FROM "mandate_match_requests"
ON CONFLICT DO NOTHING;
