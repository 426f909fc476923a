CREATE TYPE "public"."dd_category" AS ENUM('juridique', 'social', 'fiscal', 'financier', 'immobilier', 'contrats');--> statement-breakpoint
CREATE TYPE "public"."dd_question_status" AS ENUM('open', 'answered', 'closed');--> statement-breakpoint
CREATE TYPE "public"."dd_side" AS ENUM('cedant', 'acquereur', 'commun');--> statement-breakpoint
CREATE TYPE "public"."dd_status" AS ENUM('requested', 'in_progress', 'provided', 'validated', 'not_applicable');--> statement-breakpoint
CREATE TABLE "due_diligence_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"request_id" uuid,
	"document_id" uuid,
	"visibility" "dd_side" NOT NULL,
	"body" text NOT NULL,
	"asked_by" uuid,
	"asker_name" text NOT NULL,
	"asker_side" "dd_side" NOT NULL,
	"answer" text,
	"answered_by" uuid,
	"answerer_name" text,
	"answered_at" timestamp with time zone,
	"status" "dd_question_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "due_diligence_questions_target_check" CHECK ("due_diligence_questions"."request_id" is not null or "due_diligence_questions"."document_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "due_diligence_request_documents" (
	"request_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"linked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "due_diligence_request_documents_request_id_document_id_pk" PRIMARY KEY("request_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "due_diligence_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"category" "dd_category" NOT NULL,
	"title" text NOT NULL,
	"position" integer NOT NULL,
	"status" "dd_status" DEFAULT 'requested' NOT NULL,
	"owner_profile_id" uuid,
	"due_date" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_request_id_due_diligence_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."due_diligence_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_document_id_collaboration_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."collaboration_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_asked_by_profiles_id_fk" FOREIGN KEY ("asked_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_questions" ADD CONSTRAINT "due_diligence_questions_answered_by_profiles_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_request_documents" ADD CONSTRAINT "due_diligence_request_documents_request_id_due_diligence_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."due_diligence_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_request_documents" ADD CONSTRAINT "due_diligence_request_documents_document_id_collaboration_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."collaboration_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_request_documents" ADD CONSTRAINT "due_diligence_request_documents_linked_by_profiles_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD CONSTRAINT "due_diligence_requests_file_id_collaboration_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."collaboration_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD CONSTRAINT "due_diligence_requests_owner_profile_id_profiles_id_fk" FOREIGN KEY ("owner_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_requests" ADD CONSTRAINT "due_diligence_requests_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "due_diligence_questions_file_idx" ON "due_diligence_questions" USING btree ("file_id","created_at");--> statement-breakpoint
CREATE INDEX "due_diligence_questions_request_idx" ON "due_diligence_questions" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "due_diligence_questions_document_idx" ON "due_diligence_questions" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "due_diligence_request_documents_document_idx" ON "due_diligence_request_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "due_diligence_requests_file_idx" ON "due_diligence_requests" USING btree ("file_id","category","position");