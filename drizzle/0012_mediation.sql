CREATE TYPE "public"."mediation_status" AS ENUM('open', 'in_progress', 'resolved', 'dismissed');--> statement-breakpoint
CREATE TABLE "mediation_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mediation_id" uuid NOT NULL,
	"uploader_profile_id" uuid,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mediation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mediation_id" uuid NOT NULL,
	"author_role" text NOT NULL,
	"author_profile_id" uuid,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mediation_messages_role" CHECK ("mediation_messages"."author_role" in ('member', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "mediations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"opened_by" uuid,
	"opened_by_name" text NOT NULL,
	"respondent_id" uuid,
	"respondent_name" text NOT NULL,
	"subject" text NOT NULL,
	"facts" text NOT NULL,
	"status" "mediation_status" DEFAULT 'open' NOT NULL,
	"decision" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"upheld" boolean DEFAULT false NOT NULL,
	"upheld_against_id" uuid,
	"breach_kind" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mediations_breach_kind" CHECK ("mediations"."breach_kind" is null or "mediations"."breach_kind" in ('confidentiality', 'other')),
	CONSTRAINT "mediations_decision" CHECK (("mediations"."status" in ('resolved', 'dismissed')) = ("mediations"."decision" is not null)),
	CONSTRAINT "mediations_upheld" CHECK (not "mediations"."upheld" or ("mediations"."status" = 'resolved' and "mediations"."breach_kind" is not null))
);
--> statement-breakpoint
ALTER TABLE "mediation_attachments" ADD CONSTRAINT "mediation_attachments_mediation_id_mediations_id_fk" FOREIGN KEY ("mediation_id") REFERENCES "public"."mediations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediation_attachments" ADD CONSTRAINT "mediation_attachments_uploader_profile_id_profiles_id_fk" FOREIGN KEY ("uploader_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediation_messages" ADD CONSTRAINT "mediation_messages_mediation_id_mediations_id_fk" FOREIGN KEY ("mediation_id") REFERENCES "public"."mediations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediation_messages" ADD CONSTRAINT "mediation_messages_author_profile_id_profiles_id_fk" FOREIGN KEY ("author_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediation_messages" ADD CONSTRAINT "mediation_messages_author_user_id_user_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediations" ADD CONSTRAINT "mediations_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediations" ADD CONSTRAINT "mediations_opened_by_profiles_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediations" ADD CONSTRAINT "mediations_respondent_id_profiles_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediations" ADD CONSTRAINT "mediations_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mediations" ADD CONSTRAINT "mediations_upheld_against_id_profiles_id_fk" FOREIGN KEY ("upheld_against_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mediation_attachments_mediation_idx" ON "mediation_attachments" USING btree ("mediation_id");--> statement-breakpoint
CREATE INDEX "mediation_messages_mediation_idx" ON "mediation_messages" USING btree ("mediation_id","created_at");--> statement-breakpoint
CREATE INDEX "mediations_file_idx" ON "mediations" USING btree ("file_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mediations_status_idx" ON "mediations" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mediations_upheld_against_idx" ON "mediations" USING btree ("upheld_against_id") WHERE "mediations"."upheld";--> statement-breakpoint
CREATE UNIQUE INDEX "mediations_one_active_per_file" ON "mediations" USING btree ("file_id") WHERE "mediations"."status" in ('open', 'in_progress');