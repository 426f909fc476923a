// Proposing a version of the fee-sharing agreement, and its draft preview: the PDF is made from
// the terms the member typed and, once proposed, stored privately with its SHA-256.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { feeAgreements } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { AGREEMENT_MESSAGES, agreementBlocks, type AgreementParty, type Firm, type AgreementTerms } from "./agreement-rules";
import type { AgreementInput } from "./agreement.schema";
import { notifyCounterpart } from "./file-notify.server";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { contentDisposition } from "./documents-rules";
import { actorName, appendFileEvent, fileConflict, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { renderTextPdf } from "~/lib/pdf/text-pdf.server";
import { agreementKey, createBlocker, fullName, memberOf, type MemberRow, sha256 } from "./agreement-records.server";

// ---------------------------------------------------------------------------------------------
// Proposing a version

/**
 * Proposes a new version: its PDF is made and stored first, then, under the file's lock, the
 * previous pending version is cancelled, the new row and its timeline events are written and the
 * counterpart is e-mailed; if that fails the stored PDF is deleted (nothing half-stored).
 */
export async function createAgreement(actor: FileActor, fileId: string, input: AgreementInput, now: Date = new Date()): Promise<{ agreementId: string; version: number }> {
  const { access, terms, version, bytes } = await draftVersion(actor, fileId, input, now, false);
  const storage = getStorage();
  const key = agreementKey(access.id, "v");
  try {
    await storage.putObject(key, bytes, "application/pdf");
  } catch (error) {
    logger.error({ err: error, key }, "agreement could not be stored");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  try {
    return await withFile(actor, access.id, async (tx, file) => {
      const [state] = await queryRows<{ signed: boolean; next: number }>(
        sql`select bool_or(status = 'signed') as signed, coalesce(max(version), 0) + 1 as next from fee_agreements where file_id = ${file.id}::uuid`,
        tx,
      );
      const again = createBlocker(file, state?.signed ? "signed" : null);
      if (again) fileConflict(again);
      if (Number(state.next) !== version) fileConflict(AGREEMENT_MESSAGES.outdated);
      const cancelled = await queryRows<{ version: number }>(
        sql`update fee_agreements set status = 'cancelled', cancelled_at = clock_timestamp()
          where file_id = ${file.id}::uuid and status = 'pending' returning version`,
        tx,
      );
      for (const c of cancelled) await appendFileEvent(tx, file.id, actor, "agreement_cancelled", { version: c.version });
      const [row] = await tx
        .insert(feeAgreements)
        .values({
          fileId: file.id,
          version,
          status: "pending",
          terms,
          createdBy: actor.profileId,
          documentKey: key,
          documentSha256: sha256(bytes),
          createdAt: sql`clock_timestamp()`,
        })
        .returning({ id: feeAgreements.id });
      await appendFileEvent(tx, file.id, actor, "agreement_created", { version, sha256: sha256(bytes) });
      // A new version replaces the one waiting: its to-do, whoever had it, is done.
      await completeTask(taskKey("agreement_to_sign", file.id), tx);
      await notifyCounterpart(tx, file.counterpartId, file.id, {
        title: "Une convention d’honoraires vous attend",
        intro: `${actorName(actor)} vous propose ${version > 1 ? "une nouvelle version de " : ""}la convention de partage d’honoraires de votre dossier de rapprochement commun.`,
        line: "Relisez-la et signez-la depuis le dossier, sur la plateforme.",
        kind: "collaboration-agreement",
      });
      return { agreementId: row.id, version };
    });
  } catch (error) {
    await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan agreement could not be deleted"));
    throw error;
  }
}

/**
 * The terms and the PDF of the next version as `input` describes them, not stored. A draft (the
 * preview) says so on every page and in its title; the proposed version is the same text without it.
 */
async function draftVersion(actor: FileActor, fileId: string, input: AgreementInput, now: Date, draft: boolean) {
  const access = await requireFileAccess(db, actor, fileId);
  const blocked = createBlocker(access, null);
  if (blocked) fileConflict(blocked);
  const [labels] = await queryRows<{ mandate_a_label: string; mandate_b_label: string }>(
    sql`select mandate_a_label, mandate_b_label from collaboration_files where id = ${access.id}::uuid`,
  );
  const me = await memberOf(db, actor.profileId);
  const them = await memberOf(db, access.counterpartId);
  if (!me || !them) fileConflict(AGREEMENT_MESSAGES.counterpartGone);
  const other = access.side === "a" ? "b" : "a";
  const party = (side: "a" | "b", m: MemberRow, share: number, firm: Firm): AgreementParty => ({
    side,
    firm,
    name: fullName(m),
    company: m.company?.trim() || null,
    profession: m.profession,
    mandateLabel: side === "a" ? labels.mandate_a_label : labels.mandate_b_label,
    share,
  });
  const mineParty = party(access.side, me, input.myShare, {
    company: input.myCompany,
    legalForm: input.myLegalForm,
    siren: input.mySiren,
    address: input.myAddress,
    capacity: input.myCapacity,
  });
  const theirParty = party(other, them, input.theirShare, {
    company: input.theirCompany,
    legalForm: input.theirLegalForm,
    siren: input.theirSiren,
    address: input.theirAddress,
    capacity: input.theirCapacity,
  });
  const terms: AgreementTerms = {
    operationType: input.operationType,
    sellerSide: input.sellerAdviser === "me" ? access.side : other,
    amountBand: input.amountBand,
    dueTerm: input.dueTerm,
    payerSide: input.payer === "me" ? access.side : other,
    createdBySide: access.side,
    clauses: input.clauses,
    parties: access.side === "a" ? [mineParty, theirParty] : [theirParty, mineParty],
  };

  // The version number is decided under the lock; the PDF names the next one (a race between the
  // two members is caught below: a PDF naming another version is never kept).
  const [{ next }] = await queryRows<{ next: number }>(
    sql`select coalesce(max(version), 0) + 1 as next from fee_agreements where file_id = ${access.id}::uuid`,
  );
  const version = Number(next);
  const title = `Convention de partage d’honoraires — version ${version}`;
  const bytes = await renderTextPdf(agreementBlocks(terms, { version, fileReference: access.reference, createdAt: now, createdByName: actorName(actor), draft }), {
    title: draft ? `Projet — ${title}` : title,
    createdAt: now,
    ...(draft ? { footer: `Projet non signé — ${title}`, watermark: "PROJET" } : {}),
  });
  return { access, terms, version, bytes };
}

/** Making a PDF costs CPU: plenty for a member rereading drafts, a wall for a script. */
const PREVIEW_RATE: RateLimitRule = { limit: 60, windowSeconds: 60 * 60 };

/**
 * The draft PDF of the version the member is about to propose, marked « Projet » on every page;
 * nothing is stored nor recorded. The file's two members only (404 otherwise), and only while a
 * new version may be proposed.
 */
/** A draft made in memory for the preview: never stored, so its bytes rather than a stream. */
export type AgreementPreview = { bytes: Uint8Array; sha256: string; disposition: string };

export async function previewAgreement(actor: FileActor, fileId: string, input: AgreementInput, now: Date = new Date()): Promise<AgreementPreview> {
  const access = await requireFileAccess(db, actor, fileId);
  const [state] = await queryRows<{ signed: boolean | null }>(
    sql`select bool_or(status = 'signed') as signed from fee_agreements where file_id = ${access.id}::uuid`,
  );
  const blocked = createBlocker(access, state?.signed ? "signed" : null);
  if (blocked) fileConflict(blocked);
  const rate = await consumeRateLimit(`agreement-preview:${actor.profileId}`, PREVIEW_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyPreviews, "rate-limited");
  const { bytes } = await draftVersion(actor, fileId, input, now, true);
  return { bytes, sha256: sha256(bytes), disposition: contentDisposition("inline", "projet-convention-honoraires.pdf") };
}
