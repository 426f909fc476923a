CREATE TYPE "public"."abandon_reason" AS ENUM('price', 'financing', 'client_withdrawal', 'other_counterpart', 'other');--> statement-breakpoint
CREATE TYPE "public"."amount_band" AS ENUM('lt_500k', '500k_1m', '1m_3m', '3m_10m', 'gt_10m');--> statement-breakpoint
CREATE TYPE "public"."collaboration_stage" AS ENUM('introduction', 'exchanges', 'documents', 'offer', 'protocol', 'concluded', 'abandoned');--> statement-breakpoint
CREATE TYPE "public"."fee_agreement_status" AS ENUM('pending', 'signed', 'cancelled');--> statement-breakpoint
CREATE TABLE "collaboration_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"uploader_profile_id" uuid,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collaboration_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"actor_profile_id" uuid,
	"actor_name" text,
	"kind" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collaboration_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pair_key" text NOT NULL,
	"mandate_a_id" uuid,
	"mandate_b_id" uuid,
	"member_a_id" uuid,
	"member_b_id" uuid,
	"mandate_a_label" text NOT NULL,
	"mandate_b_label" text NOT NULL,
	"stage" "collaboration_stage" DEFAULT 'introduction' NOT NULL,
	"closing_proposed_by" uuid,
	"closing_proposed_at" timestamp with time zone,
	"closing_date" date,
	"amount_band" "amount_band",
	"concluded_at" timestamp with time zone,
	"abandon_reason" "abandon_reason",
	"abandon_text" text,
	"abandoned_at" timestamp with time zone,
	"member_a_read_at" timestamp with time zone,
	"member_b_read_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collaboration_files_pair_key" UNIQUE("pair_key"),
	CONSTRAINT "collaboration_files_members_check" CHECK ("collaboration_files"."member_a_id" is null or "collaboration_files"."member_b_id" is null or "collaboration_files"."member_a_id" <> "collaboration_files"."member_b_id")
);
--> statement-breakpoint
CREATE TABLE "collaboration_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"sender_profile_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"viewer_profile_id" uuid,
	"viewer_name" text,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_agreement_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_id" uuid NOT NULL,
	"profile_id" uuid,
	"signer_name" text NOT NULL,
	"document_sha256" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"method" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_agreement_signatures_signer_key" UNIQUE("agreement_id","profile_id")
);
--> statement-breakpoint
CREATE TABLE "fee_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" "fee_agreement_status" DEFAULT 'pending' NOT NULL,
	"terms" jsonb NOT NULL,
	"created_by" uuid,
	"document_key" text NOT NULL,
	"document_sha256" text NOT NULL,
	"signed_key" text,
	"signed_sha256" text,
	"signed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_agreements_file_version_key" UNIQUE("file_id","version")
);
--> statement-breakpoint
CREATE TABLE "stored_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD CONSTRAINT "collaboration_documents_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD CONSTRAINT "collaboration_documents_uploader_profile_id_profiles_id_fk" FOREIGN KEY ("uploader_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_events" ADD CONSTRAINT "collaboration_events_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_events" ADD CONSTRAINT "collaboration_events_actor_profile_id_profiles_id_fk" FOREIGN KEY ("actor_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_mandate_a_id_mandates_id_fk" FOREIGN KEY ("mandate_a_id") REFERENCES "public"."mandates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_mandate_b_id_mandates_id_fk" FOREIGN KEY ("mandate_b_id") REFERENCES "public"."mandates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_member_a_id_profiles_id_fk" FOREIGN KEY ("member_a_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_member_b_id_profiles_id_fk" FOREIGN KEY ("member_b_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_closing_proposed_by_profiles_id_fk" FOREIGN KEY ("closing_proposed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_messages" ADD CONSTRAINT "collaboration_messages_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_messages" ADD CONSTRAINT "collaboration_messages_sender_profile_id_profiles_id_fk" FOREIGN KEY ("sender_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_access_log" ADD CONSTRAINT "document_access_log_document_id_collaboration_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."collaboration_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_access_log" ADD CONSTRAINT "document_access_log_viewer_profile_id_profiles_id_fk" FOREIGN KEY ("viewer_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_agreement_signatures" ADD CONSTRAINT "fee_agreement_signatures_agreement_id_fee_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."fee_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_agreement_signatures" ADD CONSTRAINT "fee_agreement_signatures_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_agreements" ADD CONSTRAINT "fee_agreements_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_agreements" ADD CONSTRAINT "fee_agreements_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collaboration_documents_file_idx" ON "collaboration_documents" USING btree ("file_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collaboration_events_file_idx" ON "collaboration_events" USING btree ("file_id","created_at");--> statement-breakpoint
CREATE INDEX "collaboration_files_member_a_idx" ON "collaboration_files" USING btree ("member_a_id","last_activity_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collaboration_files_member_b_idx" ON "collaboration_files" USING btree ("member_b_id","last_activity_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collaboration_messages_file_idx" ON "collaboration_messages" USING btree ("file_id","created_at");--> statement-breakpoint
CREATE INDEX "document_access_log_document_idx" ON "document_access_log" USING btree ("document_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- A file for every connection confirmed before collaboration files existed, with the
-- introduction log copied as the beginning of its timeline (as openCollaborationFile does).
INSERT INTO "collaboration_files" ("pair_key", "mandate_a_id", "mandate_b_id", "member_a_id", "member_b_id", "mandate_a_label", "mandate_b_label", "created_at", "last_activity_at")
SELECT ma.id::text || ':' || mb.id::text, ma.id, mb.id, ma.profile_id, mb.profile_id,
  (CASE ma.mandate_type WHEN 'buyer' THEN 'Mandat acquéreur' ELSE 'Mandat cédant' END) || ' « ' || ma.client_code || ' »',
  (CASE mb.mandate_type WHEN 'buyer' THEN 'Mandat acquéreur' ELSE 'Mandat cédant' END) || ' « ' || mb.client_code || ' »',
  coalesce(greatest(r1.responded_at, r2.responded_at), now()), coalesce(greatest(r1.responded_at, r2.responded_at), now())
FROM "mandate_match_requests" r1
JOIN "mandate_match_requests" r2 ON r2.requester_mandate_id = r1.target_mandate_id AND r2.target_mandate_id = r1.requester_mandate_id
JOIN "mandates" ma ON ma.id = r1.requester_mandate_id
JOIN "mandates" mb ON mb.id = r1.target_mandate_id
WHERE r1.status = 'accepted' AND r2.status = 'accepted' AND r1.requester_mandate_id < r1.target_mandate_id
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "collaboration_events" ("file_id", "actor_profile_id", "actor_name", "kind", "created_at")
SELECT f.id, e.actor_profile_id, nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''), 'connection:' || e.event::text, e.created_at
FROM "collaboration_files" f
JOIN "mandate_match_requests" r ON (r.requester_mandate_id = f.mandate_a_id AND r.target_mandate_id = f.mandate_b_id)
  OR (r.requester_mandate_id = f.mandate_b_id AND r.target_mandate_id = f.mandate_a_id)
JOIN "connection_events" e ON e.match_request_id = r.id
LEFT JOIN "profiles" p ON p.id = e.actor_profile_id;
--> statement-breakpoint
INSERT INTO "collaboration_events" ("file_id", "kind", "created_at")
SELECT f.id, 'file_opened', f.created_at FROM "collaboration_files" f;
