CREATE TABLE "collaboration_ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"rater_id" uuid,
	"rater_name" text NOT NULL,
	"rated_id" uuid NOT NULL,
	"responsiveness" smallint NOT NULL,
	"professionalism" smallint NOT NULL,
	"confidentiality" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"visible_at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"answer" text,
	"answered_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_by" text,
	"hidden_reason" text,
	CONSTRAINT "collaboration_ratings_file_rated_key" UNIQUE("file_id","rated_id"),
	CONSTRAINT "collaboration_ratings_scores" CHECK ("collaboration_ratings"."responsiveness" between 1 and 5 and "collaboration_ratings"."professionalism" between 1 and 5 and "collaboration_ratings"."confidentiality" between 1 and 5),
	CONSTRAINT "collaboration_ratings_comment_length" CHECK ("collaboration_ratings"."comment" is null or char_length("collaboration_ratings"."comment") <= 1000),
	CONSTRAINT "collaboration_ratings_answer_length" CHECK ("collaboration_ratings"."answer" is null or char_length("collaboration_ratings"."answer") <= 1000),
	CONSTRAINT "collaboration_ratings_hidden_reason" CHECK (("collaboration_ratings"."hidden_at" is null) = ("collaboration_ratings"."hidden_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "member_reputation" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"requests_received" integer DEFAULT 0 NOT NULL,
	"requests_answered" integer DEFAULT 0 NOT NULL,
	"messages_received" integer DEFAULT 0 NOT NULL,
	"messages_answered" integer DEFAULT 0 NOT NULL,
	"median_response_hours" real,
	"files_total" integer DEFAULT 0 NOT NULL,
	"files_concluded" integer DEFAULT 0 NOT NULL,
	"files_abandoned" integer DEFAULT 0 NOT NULL,
	"files_with_undertaking" integer DEFAULT 0 NOT NULL,
	"concluded_last_12_months" integer DEFAULT 0 NOT NULL,
	"concluded_rank_share" real,
	"ratings_count" integer DEFAULT 0 NOT NULL,
	"rating_average" real,
	"responsiveness_average" real,
	"professionalism_average" real,
	"confidentiality_average" real,
	"upheld_mediations" integer DEFAULT 0 NOT NULL,
	"confidentiality_breaches" integer DEFAULT 0 NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rating_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rating_id" uuid NOT NULL,
	"reporter_id" uuid,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"outcome" text,
	CONSTRAINT "rating_reports_rating_reporter_key" UNIQUE("rating_id","reporter_id"),
	CONSTRAINT "rating_reports_reason_length" CHECK (char_length("rating_reports"."reason") between 1 and 1000),
	CONSTRAINT "rating_reports_outcome" CHECK ("rating_reports"."outcome" is null or "rating_reports"."outcome" in ('hidden', 'kept'))
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "show_ratings_publicly" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "collaboration_ratings" ADD CONSTRAINT "collaboration_ratings_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_ratings" ADD CONSTRAINT "collaboration_ratings_rater_id_profiles_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_ratings" ADD CONSTRAINT "collaboration_ratings_rated_id_profiles_id_fk" FOREIGN KEY ("rated_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_ratings" ADD CONSTRAINT "collaboration_ratings_hidden_by_user_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reputation" ADD CONSTRAINT "member_reputation_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_reports" ADD CONSTRAINT "rating_reports_rating_id_collaboration_ratings_id_fk" FOREIGN KEY ("rating_id") REFERENCES "public"."collaboration_ratings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_reports" ADD CONSTRAINT "rating_reports_reporter_id_profiles_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_reports" ADD CONSTRAINT "rating_reports_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collaboration_ratings_rated_idx" ON "collaboration_ratings" USING btree ("rated_id","visible_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collaboration_ratings_pending_mail_idx" ON "collaboration_ratings" USING btree ("visible_at") WHERE "collaboration_ratings"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "member_reputation_concluded_idx" ON "member_reputation" USING btree ("concluded_last_12_months") WHERE "member_reputation"."concluded_last_12_months" > 0;--> statement-breakpoint
CREATE INDEX "rating_reports_open_idx" ON "rating_reports" USING btree ("created_at") WHERE "rating_reports"."resolved_at" is null;--> statement-breakpoint
-- The public pages show reputation badges (and the ratings of members who consent): a change of
-- figures drops the public page cache (migration 0004). A row trigger, so that the hourly refresh,
-- which writes only the rows whose figures changed, notifies no one when nothing changed.
CREATE TRIGGER member_reputation_public_content
AFTER INSERT OR UPDATE OR DELETE ON member_reputation
FOR EACH ROW EXECUTE FUNCTION rt_notify_public_content();
