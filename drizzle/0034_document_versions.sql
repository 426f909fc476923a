ALTER TABLE "collaboration_documents" ADD COLUMN "lineage_id" uuid;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD COLUMN "asked_by_participant" uuid;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD COLUMN "answered_by_participant" uuid;--> statement-breakpoint
ALTER TABLE "due_diligence_request_documents" ADD COLUMN "linked_by_participant" uuid;--> statement-breakpoint
ALTER TABLE "collaboration_documents" ADD CONSTRAINT "collaboration_documents_lineage_id_collaboration_documents_id_fk" FOREIGN KEY ("lineage_id") REFERENCES "public"."collaboration_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_asked_by_participant_collaboration_participants_id_fk" FOREIGN KEY ("asked_by_participant") REFERENCES "public"."collaboration_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_answered_by_participant_collaboration_participants_id_fk" FOREIGN KEY ("answered_by_participant") REFERENCES "public"."collaboration_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_request_documents" ADD CONSTRAINT "due_diligence_request_documents_linked_by_participant_collaboration_participants_id_fk" FOREIGN KEY ("linked_by_participant") REFERENCES "public"."collaboration_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collaboration_documents_lineage_idx" ON "collaboration_documents" USING btree ("lineage_id");