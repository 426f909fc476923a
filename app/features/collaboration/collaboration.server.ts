// The collaboration file's commands: its two members move it through its stages, propose and
// confirm its closing, abandon it, write in its thread and read it. Each command is one use case: access
// check under a lock, the write, its timeline event, and the counterpart's e-mail in the same
// transaction. Opening, the list, the view and the e-mails have their own modules (re-exported
// here for the features that import them from this one).
import { formatDate } from "~/lib/format";
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { collaborationMessages } from "~/db/schema";
import { markFileThreadRead } from "~/features/messages/message-reads.server";
import { refreshReputation } from "~/features/trust/reputation.server";
import { RATING_WINDOW_DAYS } from "~/features/trust/reputation-rules";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import {
  ABANDON_REASON_LABELS,
  abandonTextRequired,
  canAbandon,
  canConfirmClosing,
  canMoveStage,
  canProposeClosing,
  COLLABORATION_MESSAGES,
  isClosed,
  STAGE_LABELS,
  type AbandonReason,
  type AmountBand,
  type Stage,
} from "./collaboration-rules";
import { concludeMandatesOfFile } from "./closings.server";
import { appendFileEvent, fileConflict, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { notifyCounterpart } from "./file-notify.server";
import { invalidate } from "~/lib/cache.server";


/**
 * The actor opened the file's messages, up to `upTo` (the newest shown; all when null): they are
 * read, in « Messages » too (one read state).
 */
export async function markFileRead(actor: Pick<FileActor, "profileId">, fileId: string, upTo: string | null = null): Promise<void> {
  const access = await requireFileAccess(db, actor, fileId);
  await markFileThreadRead(actor.profileId, access, upTo);
}

function refuseWhenClosed(stage: Stage) {
  if (isClosed(stage)) fileConflict(COLLABORATION_MESSAGES.closed);
}

/** Moves a working file one stage forward or back. */
export async function moveStage(actor: FileActor, fileId: string, to: Stage): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canMoveStage(file.stage, to)) fileConflict(COLLABORATION_MESSAGES.stageNotAllowed);
    // Moving back below the offer withdraws a pending closing proposal.
    const keepsProposal = canProposeClosing(to);
    await tx.execute(sql`update collaboration_files set stage = ${to}::collaboration_stage,
      ${keepsProposal ? sql`` : sql`closing_proposed_by = null, closing_proposed_at = null, closing_date = null, amount_band = null,`}
      updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "stage_changed", { from: file.stage, to });
    if (!keepsProposal) await completeTask(taskKey("closing_proposed", file.id), tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Un dossier de rapprochement change d’étape",
      intro: `${actor.firstName} ${actor.lastName} a passé votre dossier de rapprochement commun à l’étape «\u00a0${STAGE_LABELS[to]}\u00a0».`,
      line: "L’historique du dossier garde la trace de chaque étape.",
      kind: "collaboration-stage",
    });
  });
}

/** One member proposes "Conclu" with the signing date and an optional amount band. */
export async function proposeClosing(actor: FileActor, fileId: string, input: { closingDate: string; amountBand: AmountBand | null }): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canProposeClosing(file.stage)) fileConflict(COLLABORATION_MESSAGES.closingNotProposable);
    if (file.closingProposedBy === actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingAlreadyProposed);
    // When the other member had proposed, this counter-proposal (another date or band) replaces theirs.
    await completeTask(taskKey("closing_proposed", file.id), tx);
    await tx.execute(sql`update collaboration_files set closing_proposed_by = ${actor.profileId}::uuid, closing_proposed_at = now(),
      closing_date = ${input.closingDate}::date, amount_band = ${input.amountBand}::amount_band, updated_at = now()
      where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_proposed", {
      closingDate: input.closingDate,
      amountBand: input.amountBand,
    });
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Conclusion d’un dossier à confirmer",
      intro: `${actor.firstName} ${actor.lastName} indique que l’opération de votre dossier de rapprochement commun a été signée le ${formatDate(input.closingDate)}.`,
      line: "Confirmez la conclusion depuis le dossier pour qu’elle compte dans vos statistiques.",
      kind: "collaboration-closing",
    });
  });
}

function membersOf(actor: FileActor, file: { counterpartId: string | null }): string[] {
  return file.counterpartId ? [actor.profileId, file.counterpartId] : [actor.profileId];
}

/** The other member confirms the proposed closing: the file is concluded. */
export async function confirmClosing(actor: FileActor, fileId: string): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (file.closingProposedBy === actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingAlreadyProposed);
    if (!canConfirmClosing(file.stage, { proposedBy: file.closingProposedBy }, actor.profileId)) {
      fileConflict(COLLABORATION_MESSAGES.closingNothingToConfirm);
    }
    invalidate("collaboration_files");
    await tx.execute(sql`update collaboration_files set stage = 'concluded', concluded_at = now(), updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_confirmed", null);
    await completeTask(taskKey("closing_proposed", file.id), tx);
    // The member who proposed « Conclu » hears that the other confirmed it.
    await notifyCounterpart(tx, file.closingProposedBy, file.id, {
      title: "La conclusion de votre dossier est confirmée",
      intro: `${actor.firstName} ${actor.lastName} a confirmé la conclusion de votre dossier de rapprochement commun.`,
      line: "Le dossier est conclu\u00a0: il compte désormais dans vos statistiques.",
      kind: "collaboration-closing-confirmed",
    });
    // Both mandates conclude with their file: they leave the matching now.
    await concludeMandatesOfFile(tx, file.id);
    // The files concluded feed both members' reputation.
    await refreshReputation(membersOf(actor, file), tx);
    await openRatings(tx, file.id, actor, file);
  });
}

/**
 * The file ended: each member is asked to rate the other (a to-do each, done by their rating or
 * when the window closes). Nothing when the other member has left: there is no one to rate.
 */
async function openRatings(tx: Db, fileId: string, actor: FileActor, file: { counterpartId: string | null }): Promise<void> {
  if (!file.counterpartId) return;
  for (const member of membersOf(actor, file)) {
    await notifyCounterpart(tx, member, fileId, {
      title: "Évaluez votre confrère",
      intro: `Votre dossier de rapprochement est terminé\u00a0: vous avez ${RATING_WINDOW_DAYS}\u00a0jours pour évaluer la collaboration avec votre confrère.`,
      line: "L’évaluation est en double aveugle\u00a0: chacune devient visible quand les deux sont données, ou à la fin du délai.",
      kind: "rating-open",
      dedupeKey: `rating-open:${fileId}:${member}`,
    });
  }
}

/** The proposer withdraws their closing proposal before it is confirmed. */
export async function cancelClosingProposal(actor: FileActor, fileId: string): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (file.closingProposedBy !== actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingNothingToConfirm);
    await tx.execute(sql`update collaboration_files set closing_proposed_by = null, closing_proposed_at = null, closing_date = null,
      amount_band = null, updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_withdrawn", null);
    await completeTask(taskKey("closing_proposed", file.id), tx);
  });
}

/** "Abandonné", with a reason from the fixed list ("Autre motif" needs a text). */
export async function abandonFile(actor: FileActor, fileId: string, input: { reason: AbandonReason; text: string | null }): Promise<void> {
  if (abandonTextRequired(input.reason) && !input.text?.trim()) fileConflict(COLLABORATION_MESSAGES.abandonTextRequired, "invalid");
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canAbandon(file.stage)) fileConflict(COLLABORATION_MESSAGES.stageNotAllowed);
    const text = input.text?.trim() || null;
    await tx.execute(sql`update collaboration_files set stage = 'abandoned', abandon_reason = ${input.reason}::abandon_reason,
      abandon_text = ${text}, abandoned_at = now(), closing_proposed_by = null, updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "abandoned", { reason: input.reason, text });
    await completeTask(taskKey("closing_proposed", file.id), tx);
    await refreshReputation(membersOf(actor, file), tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Un dossier de rapprochement a été abandonné",
      intro: `${actor.firstName} ${actor.lastName} a marqué votre dossier de rapprochement commun comme abandonné (motif\u00a0: ${ABANDON_REASON_LABELS[input.reason].toLowerCase()}).`,
      line: "Le dossier reste consultable, avec son historique et ses documents.",
      kind: "collaboration-abandoned",
    });
    await openRatings(tx, file.id, actor, file);
  });
}

/** A message in the file; the counterpart gets an e-mail when they want message e-mails. */
export async function postFileMessage(actor: FileActor, fileId: string, body: string): Promise<void> {
  const text = body.trim();
  if (!text) fileConflict(COLLABORATION_MESSAGES.messageEmpty, "invalid");
  if (text.length > 5000) fileConflict(COLLABORATION_MESSAGES.messageTooLong, "invalid");
  const limit = await consumeRateLimit(`file-message:${actor.profileId}`, RATE_LIMITS.messageAccount);
  if (!limit.allowed) fileConflict(COLLABORATION_MESSAGES.tooManyMessages, "rate-limited");
  await withFile(actor, fileId, async (tx, file) => {
    if (!file.counterpartId) fileConflict(COLLABORATION_MESSAGES.counterpartGone);
    await tx.insert(collaborationMessages).values({ fileId: file.id, senderProfileId: actor.profileId, body: text, createdAt: sql`clock_timestamp()` });
    // Writing in the thread answers it: the sender has read what came before.
    await tx.execute(sql`update collaboration_files set last_activity_at = clock_timestamp() where id = ${file.id}::uuid`);
    await markFileThreadRead(actor.profileId, file, null, tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Nouveau message dans un dossier de rapprochement",
      intro: `${actor.firstName} ${actor.lastName} vous a écrit dans votre dossier de rapprochement commun.`,
      line: "Pour préserver la confidentialité, le message se lit dans le dossier, sur la plateforme.",
      kind: "collaboration-message",
      // One e-mail per unread burst: the key changes once the recipient has read the file.
      dedupeKey: `collaboration-message:${file.id}:${file.counterpartId}:${Math.floor(Date.now() / (15 * 60_000))}`,
    });
  });
}

