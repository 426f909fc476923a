-- Issue 32: « Nouveau » on a document until its reader opens it (a row per document a person opened,
-- as message_reads does for messages; by user, since a guest has no profile), and a participant as
-- the owner of a due-diligence request (decision 068).
CREATE TABLE "document_reads" (
	"user_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD COLUMN "owner_participant_id" uuid;--> statement-breakpoint
ALTER TABLE "document_reads" ADD CONSTRAINT "document_reads_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_reads" ADD CONSTRAINT "document_reads_document_id_collaboration_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."collaboration_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_reads_document_key" ON "document_reads" USING btree ("document_id","user_id");--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD CONSTRAINT "due_diligence_requests_owner_participant_id_collaboration_participants_id_fk" FOREIGN KEY ("owner_participant_id") REFERENCES "public"."collaboration_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD CONSTRAINT "due_diligence_requests_one_owner_check" CHECK (num_nonnulls("due_diligence_requests"."owner_profile_id", "due_diligence_requests"."owner_participant_id") <= 1);--> statement-breakpoint
-- Nothing opened shows as new: every opening the access log kept (a member's, by their profile) counts as read.
INSERT INTO "document_reads" ("user_id", "document_id", "read_at")
  SELECT p."user_id", l."document_id", min(l."created_at") FROM "document_access_log" l
  JOIN "profiles" p ON p."id" = l."viewer_profile_id"
  WHERE p."user_id" IS NOT NULL
  GROUP BY p."user_id", l."document_id";
