DROP INDEX "profiles_directory_idx";--> statement-breakpoint
CREATE INDEX "profiles_profession_idx" ON "profiles" USING btree ("profession") WHERE "profiles"."profile_status" = 'validated';--> statement-breakpoint
CREATE INDEX "profiles_conseil_type_idx" ON "profiles" USING btree ("conseil_type") WHERE "profiles"."profile_status" = 'validated' and "profiles"."conseil_type" is not null;--> statement-breakpoint
CREATE INDEX "profiles_directory_idx" ON "profiles" USING btree (("membership_type" = 'freemium'),"created_at" DESC NULLS LAST,"id") WHERE "profiles"."profile_status" = 'validated';