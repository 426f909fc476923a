-- Every collaboration file gets a human reference, « DR-2026-0042 » (issue 27 item 1), shown on
-- its pages, e-mails and PDFs instead of its raw id. Numbers run per calendar year (Paris time)
-- without gaps: the counter row of the year is taken in the transaction that creates the file,
-- so a rolled-back creation gives its number back. Existing files are numbered in creation order.
CREATE TABLE "collaboration_file_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "collaboration_file_counters_last_number_check" CHECK ("last_number" >= 0)
);
--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD COLUMN "reference" text;
--> statement-breakpoint
WITH numbered AS (
	SELECT id,
		extract(year FROM created_at AT TIME ZONE 'Europe/Paris')::integer AS year,
		row_number() OVER (PARTITION BY extract(year FROM created_at AT TIME ZONE 'Europe/Paris') ORDER BY created_at, id) AS n
	FROM collaboration_files
)
UPDATE collaboration_files f
SET reference = 'DR-' || numbered.year || '-' || lpad(numbered.n::text, greatest(4, length(numbered.n::text)), '0')
FROM numbered
WHERE numbered.id = f.id;
--> statement-breakpoint
INSERT INTO collaboration_file_counters (year, last_number)
SELECT extract(year FROM created_at AT TIME ZONE 'Europe/Paris')::integer, count(*)
FROM collaboration_files
GROUP BY 1;
--> statement-breakpoint
ALTER TABLE "collaboration_files" ALTER COLUMN "reference" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "collaboration_files" ADD CONSTRAINT "collaboration_files_reference_key" UNIQUE("reference");
