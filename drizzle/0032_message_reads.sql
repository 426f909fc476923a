-- One read state for the inbox and the files' threads (issue 31 §3, decision 054): a row per
-- message a member has read. Expand only: `messages.is_read` and `collaboration_files.member_*_read_at`
-- stay, written alongside by this release for the previous one, and are dropped by a later one.
CREATE TABLE "message_reads" (
	"profile_id" uuid NOT NULL,
	"message_id" uuid,
	"file_message_id" uuid,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_reads_one_message_check" CHECK (num_nonnulls("message_reads"."message_id", "message_reads"."file_message_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_file_message_id_collaboration_messages_id_fk" FOREIGN KEY ("file_message_id") REFERENCES "public"."collaboration_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_reads_message_key" ON "message_reads" USING btree ("message_id","profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_reads_file_message_key" ON "message_reads" USING btree ("file_message_id","profile_id");--> statement-breakpoint
-- Nothing lost: every inbox message marked read, and every file message its reader's mark covered.
INSERT INTO "message_reads" ("profile_id", "message_id", "read_at")
  SELECT "recipient_id", "id", "updated_at" FROM "messages" WHERE "is_read";
--> statement-breakpoint
INSERT INTO "message_reads" ("profile_id", "file_message_id", "read_at")
  SELECT f."member_a_id", cm."id", f."member_a_read_at" FROM "collaboration_messages" cm
  JOIN "collaboration_files" f ON f."id" = cm."file_id"
  WHERE f."member_a_id" IS NOT NULL AND f."member_a_read_at" IS NOT NULL AND cm."created_at" <= f."member_a_read_at"
    AND cm."sender_profile_id" IS DISTINCT FROM f."member_a_id";
--> statement-breakpoint
INSERT INTO "message_reads" ("profile_id", "file_message_id", "read_at")
  SELECT f."member_b_id", cm."id", f."member_b_read_at" FROM "collaboration_messages" cm
  JOIN "collaboration_files" f ON f."id" = cm."file_id"
  WHERE f."member_b_id" IS NOT NULL AND f."member_b_read_at" IS NOT NULL AND cm."created_at" <= f."member_b_read_at"
    AND cm."sender_profile_id" IS DISTINCT FROM f."member_b_id";
