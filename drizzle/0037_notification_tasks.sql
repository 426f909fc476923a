-- The notification model calls what a notification opens a « task » (the word « todo » reads as an unfinished-work marker in code).
ALTER TABLE "notifications" RENAME COLUMN "todo" TO "task";--> statement-breakpoint
ALTER INDEX "notifications_user_todo_idx" RENAME TO "notifications_user_task_idx";
