// The closing archive as a participant may take it: the versions of the documents
// of the folders their side sees where they hold « télécharger », and their side's list (XLSX,
// PDF) with its owners, questions and answers — the whole list, not a page of it; not the fee agreement, the founders' undertakings nor the timeline. Same manifest and
// seal as the founders' archive.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { AGREEMENT_MESSAGES } from "~/features/collaboration/agreement-rules";
import { isClosed } from "~/features/collaboration/collaboration-rules";
import { uniquePath } from "~/features/collaboration/closing-archive-rules";
import { archivePathsTaken, documentEntries, made, streamArchive, type ArchiveEntry, type ClosingArchive } from "~/features/collaboration/closing-archive.server";
import { fileConflict } from "~/features/collaboration/file-access.server";
import { mayReach, REACH_MESSAGES } from "~/features/due-diligence/participant-reach-rules";
import { folderVisibleTo, FOLDER_VISIBILITIES, isAllowed } from "~/features/collaboration/participant-rules";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { DD_SIDE_LABELS } from "./due-diligence-rules";
import { archivedQuestions } from "./archive.server";
import { renderDueDiligence } from "./export.server";
import { participantDocumentSeen, participantListForArchive } from "./participant.server";

const ARCHIVE_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 };

/** The archive of a concluded file for a participant with « voir » and « télécharger » (403 otherwise, 409 before the end). */
export async function openParticipantArchive(userId: string, fileId: string, now: Date = new Date()): Promise<ClosingArchive> {
  const access = await requireFileParticipant(db, userId, fileId);
  if (access.stage !== "concluded") fileConflict(AGREEMENT_MESSAGES.archiveNotConcluded, "conflict");
  if (!mayReach(access, "archive", isClosed(access.stage))) fileConflict(REACH_MESSAGES.noRight, "forbidden");
  const rate = await consumeRateLimit(`closing-archive:${userId}`, ARCHIVE_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyExports, "rate-limited");
  // The folder visibilities whose documents this person may download (the general folder is « both »).
  const downloadable = FOLDER_VISIBILITIES.filter(
    (v) => folderVisibleTo(access.side, v) && isAllowed({ role: access.role, side: access.side, visibility: v, rights: access.rights, right: "telecharger" }),
  );
  const taken = archivePathsTaken();
  const entries: ArchiveEntry[] = downloadable.length
    ? await documentEntries(
        access.fileId,
        sql`coalesce(fo.visibility, 'both') in (${sql.join(
          downloadable.map((v) => sql`${v}`),
          sql`, `,
        )})`,
        taken,
      )
    : [];
  const { list } = await participantListForArchive(userId, fileId);
  if (list) {
    const questions = await archivedQuestions(access.fileId, list.side, participantDocumentSeen(access.side));
    const side = DD_SIDE_LABELS[list.side].toLowerCase();
    const bytes = Buffer.from(`${JSON.stringify({ file: access.reference, side: list.side, requests: list.rows.map((i) => ({ demande: i.title, rubrique: i.category, statut: i.status, responsable: i.ownerName })), questions }, null, 2)}\n`);
    entries.push(
      made(uniquePath("diligences", "liste-de-diligences.xlsx", taken), (await renderDueDiligence(list, "xlsx")).bytes, `Liste de diligences (${list.progress.label}), vue du côté ${side}`),
      made(uniquePath("diligences", "liste-de-diligences.pdf", taken), (await renderDueDiligence(list, "pdf")).bytes, "Liste de diligences, PDF"),
      made(uniquePath("diligences", "diligences-questions-reponses.json", taken), bytes, `Liste de diligences et questions vues du côté ${side}`),
    );
  }
  return streamArchive({ fileId: access.fileId, reference: access.reference, entries, now });
}
