CREATE TABLE "collaboration_folders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"name" text NOT NULL,
	"visibility" text DEFAULT 'both' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collaboration_folders_name_key" UNIQUE("file_id","name"),
	CONSTRAINT "collaboration_folders_visibility_check" CHECK ("collaboration_folders"."visibility" in ('both', 'cedant', 'acquereur'))
);
--> statement-breakpoint
CREATE TABLE "collaboration_participants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"side" text NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"invited_by" uuid,
	"invited_by_name" text NOT NULL,
	"user_id" text,
	"profile_id" uuid,
	"is_guest" boolean DEFAULT false NOT NULL,
	"first_name" text,
	"last_name" text,
	"company" text,
	"can_view" boolean DEFAULT true NOT NULL,
	"can_download" boolean DEFAULT false NOT NULL,
	"can_upload" boolean DEFAULT false NOT NULL,
	"accepted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"approved_by" uuid,
	"undertaking_signed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collaboration_participants_token_key" UNIQUE("token_hash"),
	CONSTRAINT "collaboration_participants_role_check" CHECK ("collaboration_participants"."role" in ('expert_comptable', 'avocat', 'notaire', 'banque', 'conseil', 'autre')),
	CONSTRAINT "collaboration_participants_side_check" CHECK ("collaboration_participants"."side" in ('cedant', 'acquereur', 'commun')),
	CONSTRAINT "collaboration_participants_status_check" CHECK ("collaboration_participants"."status" in ('invited', 'awaiting_approval', 'active', 'withdrawn', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "guest_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD COLUMN "uploader_participant_id" uuid;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD COLUMN "folder_id" uuid;--> statement-breakpoint
ALTER TABLE "collaboration_folders" ADD CONSTRAINT "collaboration_folders_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_folders" ADD CONSTRAINT "collaboration_folders_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_participants" ADD CONSTRAINT "collaboration_participants_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_participants" ADD CONSTRAINT "collaboration_participants_invited_by_profiles_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_participants" ADD CONSTRAINT "collaboration_participants_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_participants" ADD CONSTRAINT "collaboration_participants_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_participants" ADD CONSTRAINT "collaboration_participants_approved_by_profiles_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_accounts" ADD CONSTRAINT "guest_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collaboration_participants_file_idx" ON "collaboration_participants" USING btree ("file_id","created_at");--> statement-breakpoint
CREATE INDEX "collaboration_participants_user_idx" ON "collaboration_participants" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collaboration_participants_open_email_key" ON "collaboration_participants" USING btree ("file_id",lower("email")) WHERE "collaboration_participants"."status" in ('invited', 'awaiting_approval', 'active');--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD CONSTRAINT "collaboration_documents_uploader_participant_id_collaboration_participants_id_fk" FOREIGN KEY ("uploader_participant_id") REFERENCES "public"."collaboration_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD CONSTRAINT "collaboration_documents_folder_id_collaboration_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."collaboration_folders"("id") ON DELETE set null ON UPDATE no action;