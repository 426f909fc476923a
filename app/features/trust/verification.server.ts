// Verification evidence of a member: SIREN/SIRET, professional registration and the
// liability insurance certificate. Private: every function here is scoped to the member's own
// profile, except the admins' reads in features/admin/verification-admin.server.ts. The
// certificate's bytes are checked like every shared document (prepareDocument) and stored under
// the private "documents/" prefix, never under a public /uploads/ URL; nothing about it (name,
// insurer, policy number) is ever logged.
import { randomBytes } from "node:crypto";
import { and, eq, gte, lte, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { profiles, user, verificationChecks, verificationEvidence } from "~/db/schema";
import { prepareDocument } from "~/features/collaboration/document-checks.server";
import { contentDisposition } from "~/features/collaboration/documents-rules";
import { parisToday } from "~/features/mandates/mandate-rules";
import { getEnv } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { recordJobRun, registerJob } from "~/lib/metrics/signals.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { getStorage } from "~/lib/storage/storage.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import { DOCUMENT_FORMATS, MB } from "~/lib/storage/upload-rules";
import { INSURANCE_MAX_MB, VERIFICATION_MESSAGES, type InsuranceFields, type VerificationInput } from "./verification.schema";
import { insuranceReminderDue, insuranceStatus, registrationSummary, VERIFICATION_STEPS, type InsuranceStatus, type RegistrationKind } from "./verification-rules";
import { invalidate } from "~/lib/cache.server";
import { completeTask, recordEvent } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const INSURANCE_LIMITS = { maxBytes: INSURANCE_MAX_MB * MB, quotaBytes: INSURANCE_MAX_MB * MB };

function refuse(message: string, code: AppErrorCode): never {
  throw new AppError(code, message);
}

export type UploadedFile = { name: string; bytes: Uint8Array };

type StoredCertificate = { key: string; name: string; contentType: string; sizeBytes: number; sha256: string };

// Each certificate is parsed (a PDF in the worker pool, an image by sharp): generous for a person
// renewing or correcting theirs, a wall for a script (applicants included).
const CERTIFICATE_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 };

/** Checks the certificate (size, type from the bytes, a readable PDF or image) and stores it. */
async function storeCertificate(profileId: string, file: UploadedFile): Promise<StoredCertificate> {
  const rate = await consumeRateLimit(`insurance-upload:${profileId}`, CERTIFICATE_RATE);
  if (!rate.allowed) refuse(VERIFICATION_MESSAGES.tooManyUploads, "rate-limited");
  const doc = await prepareDocument(file, INSURANCE_LIMITS);
  if (doc.type !== "pdf" && doc.type !== "jpeg" && doc.type !== "png") refuse(VERIFICATION_MESSAGES.wrongType, "unsupported-type");
  const { extension, contentType } = DOCUMENT_FORMATS[doc.type];
  const key = `${PRIVATE_DOCUMENTS_PREFIX}verification/${profileId}/${randomBytes(16).toString("hex")}.${extension}`;
  try {
    await getStorage().putObject(key, doc.bytes, contentType);
  } catch (error) {
    logger.error({ err: error }, "insurance certificate could not be stored");
    refuse("L’attestation n’a pas pu être enregistrée. Veuillez réessayer.", "failed");
  }
  return { key, name: doc.name, contentType, sizeBytes: doc.bytes.byteLength, sha256: doc.sha256 };
}

async function dropStored(key: string | null | undefined) {
  if (!key) return;
  await getStorage()
    .deleteObject(key)
    .catch((e: unknown) => logger.warn({ err: e }, "superseded insurance certificate could not be deleted"));
}

async function hasEvidence(handle: Db | Tx, profileId: string): Promise<boolean> {
  const rows = await handle.select({ id: verificationEvidence.profileId }).from(verificationEvidence).where(eq(verificationEvidence.profileId, profileId)).limit(1);
  return rows.length > 0;
}

export async function profileHasEvidence(profileId: string): Promise<boolean> {
  return hasEvidence(db, profileId);
}

/**
 * Saves the onboarding step's evidence for the member's own profile (new or corrected). A new
 * certificate replaces the previous one; the steps an admin had ticked for what changed are
 * unticked, so the team checks the new evidence.
 */
export async function saveEvidence(profileId: string, input: VerificationInput, file: UploadedFile | null): Promise<void> {
  const [previous] = await db.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, profileId)).limit(1);
  if (!file && !previous) refuse(VERIFICATION_MESSAGES.noFile, "invalid");
  const stored = file ? await storeCertificate(profileId, file) : null;
  const certificate = stored
    ? {
        insuranceStorageKey: stored.key,
        insuranceFileName: stored.name,
        insuranceContentType: stored.contentType,
        insuranceSizeBytes: stored.sizeBytes,
        insuranceSha256: stored.sha256,
        insuranceUploadedAt: new Date(),
      }
    : {};
  const values = {
    sirenTyped: input.siren.typed,
    sirenDigits: input.siren.digits,
    registrationKind: input.registration.kind,
    registrationValue: input.registration.value,
    registrationYear: input.registration.year,
    insurer: input.insurer,
    policyNumber: input.policyNumber,
    insuranceEndsOn: input.insuranceEndsOn,
    updatedAt: new Date(),
  };
  try {
    await db.transaction(async (tx) => {
      if (previous) {
        await tx.update(verificationEvidence).set({ ...values, ...certificate }).where(eq(verificationEvidence.profileId, profileId));
        const changed: string[] = [];
        if (previous.sirenDigits !== values.sirenDigits) changed.push("siren");
        if (previous.registrationValue !== values.registrationValue || previous.registrationYear !== values.registrationYear) changed.push("registration");
        if (stored || previous.insurer !== values.insurer || previous.policyNumber !== values.policyNumber || previous.insuranceEndsOn !== values.insuranceEndsOn) changed.push("insurance");
        if (changed.length) {
          await tx.delete(verificationChecks).where(and(eq(verificationChecks.profileId, profileId), sql`${verificationChecks.step} in ${changed}`));
        }
      } else {
        if (!stored) refuse(VERIFICATION_MESSAGES.noFile, "invalid");
        await tx.insert(verificationEvidence).values({
          profileId,
          ...values,
          insuranceStorageKey: stored.key,
          insuranceFileName: stored.name,
          insuranceContentType: stored.contentType,
          insuranceSizeBytes: stored.sizeBytes,
          insuranceSha256: stored.sha256,
        });
      }
    });
  } catch (error) {
    await dropStored(stored?.key);
    throw error;
  }
  if (stored) await dropStored(previous?.insuranceStorageKey);
}

/**
 * A new insurance certificate from a validated member (/parametres/assurance): replaces the previous one
 * and waits for an admin's check (the insurance step is unticked). The summary is rewritten in the
 * same transaction, so the public mark is withdrawn until the team checks the new certificate.
 */
export async function renewInsurance(profileId: string, input: InsuranceFields, file: UploadedFile): Promise<void> {
  const [previous] = await db.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, profileId)).limit(1);
  if (!previous) refuse("Renseignez d’abord vos justificatifs de vérification.", "conflict");
  const stored = await storeCertificate(profileId, file);
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(verificationEvidence)
        .set({
          insurer: input.insurer,
          policyNumber: input.policyNumber,
          insuranceEndsOn: input.insuranceEndsOn,
          insuranceStorageKey: stored.key,
          insuranceFileName: stored.name,
          insuranceContentType: stored.contentType,
          insuranceSizeBytes: stored.sizeBytes,
          insuranceSha256: stored.sha256,
          insuranceUploadedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(verificationEvidence.profileId, profileId));
      await tx.delete(verificationChecks).where(and(eq(verificationChecks.profileId, profileId), eq(verificationChecks.step, "insurance")));
      // The public mark follows the checks: the new certificate is unchecked, so the mark waits for the team.
      await writeVerificationSummary(tx, profileId);
      await completeTask(taskKey("insurance_expiring", profileId), tx);
    });
  } catch (error) {
    await dropStored(stored.key);
    throw error;
  }
  await dropStored(previous.insuranceStorageKey);
}

/** The member's own view of their evidence (no storage key). */
export type OwnEvidence = {
  sirenTyped: string;
  registrationKind: RegistrationKind;
  registrationValue: string;
  registrationYear: number | null;
  insurer: string;
  policyNumber: string;
  insuranceEndsOn: string;
  insuranceFileName: string;
  insuranceUploadedAt: string;
  insuranceStatus: InsuranceStatus;
  /** The team has checked the current certificate. */
  insuranceChecked: boolean;
};

const ownEvidence = builtOnce((handle) =>
  handle
    .select({
      sirenTyped: verificationEvidence.sirenTyped,
      registrationKind: verificationEvidence.registrationKind,
      registrationValue: verificationEvidence.registrationValue,
      registrationYear: verificationEvidence.registrationYear,
      insurer: verificationEvidence.insurer,
      policyNumber: verificationEvidence.policyNumber,
      insuranceEndsOn: verificationEvidence.insuranceEndsOn,
      insuranceFileName: verificationEvidence.insuranceFileName,
      insuranceUploadedAt: verificationEvidence.insuranceUploadedAt,
      // Qualified by hand: in a single-table select drizzle prints the column bare, which inside
      // the subquery resolved to the check's own profile_id (any member's checked insurance).
      insuranceChecked: sql<boolean>`exists (select 1 from verification_checks c where c.profile_id = "verification_evidence"."profile_id" and c.step = 'insurance')`,
    })
    .from(verificationEvidence)
    .where(eq(verificationEvidence.profileId, sql.placeholder("profileId")))
    .limit(1),
);

export async function getOwnEvidence(profileId: string, today: string = parisToday()): Promise<OwnEvidence | null> {
  const [row] = await ownEvidence().execute({ profileId });
  if (!row) return null;
  return {
    ...row,
    registrationKind: row.registrationKind as RegistrationKind,
    insuranceUploadedAt: row.insuranceUploadedAt.toISOString(),
    insuranceStatus: insuranceStatus(row.insuranceEndsOn, today),
    insuranceChecked: Boolean(row.insuranceChecked),
  };
}

export { registrationSummary };

/**
 * The certificate's bytes for its owner or an admin; a 404 for anyone else (the same answer as
 * for a profile without a certificate, so nothing is learnt).
 */
export async function openInsuranceCertificate(actor: { profileId: string | null; isAdmin: boolean }, profileId: string) {
  function notFound(): never {
    refuse(VERIFICATION_MESSAGES.notFound, "not-found");
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(profileId)) notFound();
  if (!actor.isAdmin && actor.profileId !== profileId) notFound();
  const [row] = await db
    .select({
      key: verificationEvidence.insuranceStorageKey,
      name: verificationEvidence.insuranceFileName,
      contentType: verificationEvidence.insuranceContentType,
      sha256: verificationEvidence.insuranceSha256,
    })
    .from(verificationEvidence)
    .where(eq(verificationEvidence.profileId, profileId))
    .limit(1);
  if (!row) notFound();
  // Streamed, and checked against the SHA-256 recorded when it was uploaded.
  const object = await getStorage().openObject(row.key, { sha256: row.sha256 });
  if (!object) notFound();
  const inline = row.contentType === "application/pdf" || row.contentType.startsWith("image/");
  return { object, contentType: row.contentType, disposition: contentDisposition(inline ? "inline" : "attachment", row.name) };
}

// ---------------------------------------------------------------------------------------------
// The public mark

export type VerificationSummary = { steps: { step: string; checkedAt: string }[] };

/** Writes the mark's summary on the profile (read by public pages; invalidates their cache). */
export async function writeVerificationSummary(tx: Tx, profileId: string): Promise<void> {
  const checks = await tx
    .select({ step: verificationChecks.step, checkedAt: verificationChecks.checkedAt })
    .from(verificationChecks)
    .where(eq(verificationChecks.profileId, profileId));
  const [evidence] = await tx.select({ endsOn: verificationEvidence.insuranceEndsOn }).from(verificationEvidence).where(eq(verificationEvidence.profileId, profileId)).limit(1);
  const byStep = new Map(checks.map((c) => [c.step, c.checkedAt.toISOString()]));
  const steps = VERIFICATION_STEPS.filter((s) => byStep.has(s)).map((s) => ({ step: s, checkedAt: byStep.get(s)! }));
  invalidate("profiles");
  await tx
    .update(profiles)
    .set({
      verificationSummary: { steps },
      insuranceValidUntil: byStep.has("insurance") && evidence ? evidence.endsOn : null,
    })
    .where(eq(profiles.id, profileId));
}

// ---------------------------------------------------------------------------------------------
// Insurance reminders

/**
 * E-mails validated members whose certificate ends in 30 days, then in 7 days. Each reminder's
 * dedupe key (profile, end date, 30 or 7) makes it go out once, whichever instance runs the job
 * and however often; a new end date re-arms both. Returns how many e-mails were queued.
 */
export async function sendInsuranceReminders(today: string = parisToday()): Promise<number> {
  const env = getEnv();
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
  const due = await db
    .select({ profileId: verificationEvidence.profileId, endsOn: verificationEvidence.insuranceEndsOn, email: user.email })
    .from(verificationEvidence)
    .innerJoin(profiles, eq(profiles.id, verificationEvidence.profileId))
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(and(gte(verificationEvidence.insuranceEndsOn, today), lte(verificationEvidence.insuranceEndsOn, horizon), eq(profiles.profileStatus, "validated")));
  let queued = 0;
  for (const row of due) {
    const reminder = insuranceReminderDue(row.endsOn, today);
    if (!reminder) continue;
    const end = formatDate(row.endsOn);
    const title = `Votre attestation d’assurance expire le ${end}`;
    // One to-do until a new certificate is deposited; the e-mails (30 and 7 days before) go out
    // now only for « Immédiatement » under « Compte et mandats », otherwise the digest tells.
    const id = await db.transaction(async (tx) => {
      const frequency = await recordEvent(
        tx,
        row.profileId,
        "insurance_expiring",
        { title, body: "Déposez votre nouvelle attestation d’assurance responsabilité civile professionnelle.", link: "/parametres/assurance" },
        { task: taskKey("insurance_expiring", row.profileId), whileOpen: true },
      );
      if (frequency !== "immediate") return null;
      return sendNotificationEmail(
        row.email,
        {
          title,
          intro: `L’attestation d’assurance responsabilité civile professionnelle que vous nous avez transmise arrive à échéance le ${end}.`,
          lines: [
            "Déposez la nouvelle attestation depuis votre espace membre\u00a0: la mention «\u00a0Profil vérifié\u00a0» est accordée de nouveau dès que l’équipe l’a vérifiée.",
            "Passé cette date, sans attestation vérifiée, la mention «\u00a0Profil vérifié\u00a0» est retirée de votre profil public.",
          ],
          ctaLabel: "Déposer ma nouvelle attestation",
          ctaUrl: `${env.APP_URL}/parametres/assurance`,
          footer: "Vous recevez cet e-mail car votre attestation d’assurance arrive à échéance.",
          unsubscribeUrl: unsubscribeUrl(row.profileId, "account"),
        },
        { kind: "insurance-reminder", dedupeKey: `insurance-reminder:${row.profileId}:${row.endsOn}:${reminder}`, tx },
      );
    });
    if (id !== null) queued++;
  }
  return queued;
}

/** Its name in the metrics (`rt_job_last_success_timestamp_seconds{job}`). */
export const INSURANCE_REMINDER_JOB = "insurance reminders";

/** Runs the insurance reminders shortly after start, then hourly; errors are logged, never thrown. */
export function startInsuranceReminderJob(options: { intervalMs?: number; initialDelayMs?: number } = {}): { stop(): void } {
  const intervalMs = options.intervalMs ?? 60 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(async () => {
      try {
        const count = await sendInsuranceReminders();
        if (count > 0) logger.info({ count }, "insurance reminders queued");
        recordJobRun(INSURANCE_REMINDER_JOB, true);
      } catch (error) {
        recordJobRun(INSURANCE_REMINDER_JOB, false);
        logger.error({ err: error }, "insurance reminders failed");
      }
      schedule(intervalMs);
    }, delay);
    timer.unref();
  };
  registerJob(INSURANCE_REMINDER_JOB, intervalMs);
  schedule(options.initialDelayMs ?? 45_000);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
