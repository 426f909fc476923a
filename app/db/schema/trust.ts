// Verification evidence: what a member gives the team to prove who they are
// (SIREN/SIRET, professional registration, liability insurance certificate) and the admins'
// ticks on the five verification steps. Private: the member and the admins only; the public
// "Profil vérifié" mark reads the summary stored on profiles (so that the public page cache is
// invalidated by the profiles triggers), never these tables.
import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const verificationEvidence = pgTable(
  "verification_evidence",
  {
    profileId: uuid("profile_id")
      .primaryKey()
      .references(() => profiles.id, { onDelete: "cascade" }),
    /** As typed ("732 829 320 00074"), for display; `siren_digits` for checks and links. */
    sirenTyped: text("siren_typed").notNull(),
    sirenDigits: text("siren_digits").notNull(),
    registrationKind: text("registration_kind").notNull(),
    registrationValue: text("registration_value").notNull(),
    registrationYear: integer("registration_year"),
    insurer: text("insurer").notNull(),
    policyNumber: text("policy_number").notNull(),
    insuranceEndsOn: date("insurance_ends_on").notNull(),
    /** The certificate's bytes live in storage under "verification/{profileId}/…" (private). */
    insuranceStorageKey: text("insurance_storage_key").notNull(),
    insuranceFileName: text("insurance_file_name").notNull(),
    insuranceContentType: text("insurance_content_type").notNull(),
    insuranceSizeBytes: integer("insurance_size_bytes").notNull(),
    insuranceSha256: text("insurance_sha256").notNull(),
    insuranceUploadedAt: ts("insurance_uploaded_at").notNull().defaultNow(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("verification_evidence_siren_digits", sql`${t.sirenDigits} ~ '^([0-9]{9}|[0-9]{14})$'`),
    index("verification_evidence_ends_on_idx").on(t.insuranceEndsOn),
  ],
);

/** One row per ticked step; unticking deletes it (both are in the audit log). */
export const verificationChecks = pgTable(
  "verification_checks",
  {
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    step: text("step").notNull(),
    checkedBy: text("checked_by").references(() => user.id, { onDelete: "set null" }),
    checkedAt: ts("checked_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.step] }),
    check("verification_checks_step", sql`${t.step} in ('charter', 'sponsors', 'registration', 'siren', 'insurance')`),
  ],
);
