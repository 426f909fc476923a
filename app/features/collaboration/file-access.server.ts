// Access to a collaboration file: only its two members reach it (a 404 for anyone else, admins
// included — mediation is the one exception, granted by its own module). Every command locks the
// file row, checks the actor's side and writes its timeline event in the same transaction.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { collaborationEvents } from "~/db/schema";
import { fileEvent, type FileEventDetails, type FileEventKind } from "./timeline";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { oncePerRequest } from "~/lib/request-scope.server";
import { isUuid } from "~/lib/uuid";
import { COLLABORATION_MESSAGES, type Stage } from "./collaboration-rules";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";

/** The acting member, as every collaboration command receives it. */
/** The member acting in a file; `company` when the caller has it (the watermark of a PDF names it). */
export type FileActor = { profileId: string; firstName: string; lastName: string; company?: string | null };

export function fileActor(profile: { id: string; firstName: string; lastName: string; company?: string | null }): FileActor {
  return { profileId: profile.id, firstName: profile.firstName, lastName: profile.lastName, company: profile.company };
}

export function actorName(actor: FileActor): string {
  return `${actor.firstName} ${actor.lastName}`.trim();
}

export function fileNotFound(): never {
  throw new AppError("not-found", COLLABORATION_MESSAGES.notFound);
}

export function fileConflict(message: string, code: AppErrorCode = "conflict"): never {
  throw new AppError(code, message);
}

/** The file as its commands need it, seen from the actor's side. */
export type FileAccess = {
  id: string;
  /** The human reference, « DR-2026-0042 ». */
  reference: string;
  stage: Stage;
  side: "a" | "b";
  /** The other member's profile id (null once their account is gone). */
  counterpartId: string | null;
  myMandateId: string | null;
  theirMandateId: string | null;
  closingProposedBy: string | null;
  createdAt: Date;
};

type AccessRow = {
  id: string;
  reference: string;
  stage: Stage;
  member_a_id: string | null;
  member_b_id: string | null;
  mandate_a_id: string | null;
  mandate_b_id: string | null;
  closing_proposed_by: string | null;
  created_at: Date | string;
};

function toAccess(row: AccessRow, profileId: string): FileAccess {
  const side = row.member_a_id === profileId ? "a" : "b";
  return {
    id: row.id,
    reference: row.reference,
    stage: row.stage,
    side,
    counterpartId: side === "a" ? row.member_b_id : row.member_a_id,
    myMandateId: side === "a" ? row.mandate_a_id : row.mandate_b_id,
    theirMandateId: side === "a" ? row.mandate_b_id : row.mandate_a_id,
    closingProposedBy: row.closing_proposed_by,
    createdAt: new Date(row.created_at),
  };
}

/**
 * The file if the actor is one of its two members, else a 404. With `lock`, the row is locked
 * for the rest of the transaction (commands), so two members acting at once are serialised.
 */
export async function requireFileAccess(handle: Db, actor: Pick<FileActor, "profileId">, fileId: string, lock = false): Promise<FileAccess> {
  if (handle === db && !lock) return readFileAccess(actor, fileId);
  if (!isUuid(fileId)) fileNotFound();
  const rows = await queryRows<AccessRow>(
    sql`select id, reference, stage::text as stage, member_a_id, member_b_id, mandate_a_id, mandate_b_id, closing_proposed_by, created_at
      from collaboration_files
      where id = ${fileId}::uuid and (member_a_id = ${actor.profileId}::uuid or member_b_id = ${actor.profileId}::uuid)
      ${lock ? sql`for update` : sql``}`,
    handle,
  );
  const row = rows[0];
  if (!row) fileNotFound();
  return toAccess(row, actor.profileId);
}

/** What the file's header shows besides its access: the mandates' labels and the counterpart. */
export type FileLabels = {
  myMandateLabel: string;
  theirMandateLabel: string;
  /** The counterpart's profile as read (all null once their account is gone). */
  counterpart: { firstName: string | null; lastName: string | null; company: string | null };
};

type ReadRow = AccessRow & {
  mandate_a_label: string;
  mandate_b_label: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
};

/**
 * requireFileAccess for reads, with the header's labels and counterpart in the same statement;
 * read once per page request (the file's layout and its tab both ask).
 */
export function readFileAccess(actor: Pick<FileActor, "profileId">, fileId: string): Promise<FileAccess & FileLabels> {
  return oncePerRequest(`file-access:${actor.profileId}:${fileId}`, async () => {
    if (!isUuid(fileId)) fileNotFound();
    // Keyed by the file and the member: prepared, its plan reused.
    const [row] = await queryRows<ReadRow>(withReusablePlan(sql`
      select f.id, f.reference, f.stage::text as stage, f.member_a_id, f.member_b_id, f.mandate_a_id, f.mandate_b_id, f.closing_proposed_by, f.created_at,
        f.mandate_a_label, f.mandate_b_label, o.first_name, o.last_name, o.company
      from collaboration_files f
      left join profiles o on o.id = (case when f.member_a_id = ${actor.profileId}::uuid then f.member_b_id else f.member_a_id end)
      where f.id = ${fileId}::uuid and (f.member_a_id = ${actor.profileId}::uuid or f.member_b_id = ${actor.profileId}::uuid)`));
    if (!row) fileNotFound();
    const access = toAccess(row, actor.profileId);
    const mine = access.side === "a";
    return {
      ...access,
      myMandateLabel: mine ? row.mandate_a_label : row.mandate_b_label,
      theirMandateLabel: mine ? row.mandate_b_label : row.mandate_a_label,
      counterpart: { firstName: row.first_name, lastName: row.last_name, company: row.company },
    };
  });
}

/** Appends one event to the file's timeline (its details checked against the kind's declaration) and marks the file active. */
export async function appendFileEvent<K extends FileEventKind>(
  handle: Db,
  fileId: string,
  // A guest participant has no profile: their name only.
  actor: FileActor | { guestName: string } | null,
  kind: K,
  details: FileEventDetails<K>,
): Promise<void> {
  const event = fileEvent(kind, details);
  // clock_timestamp(): several events of one transaction keep their order.
  await handle.insert(collaborationEvents).values({
    fileId,
    actorProfileId: actor && "profileId" in actor ? actor.profileId : null,
    actorName: !actor ? null : "guestName" in actor ? actor.guestName : actorName(actor),
    kind: event.kind,
    details: event.details as Record<string, unknown> | null,
    createdAt: sql`clock_timestamp()`,
  });
  await handle.execute(sql`update collaboration_files set last_activity_at = clock_timestamp(), updated_at = now() where id = ${fileId}::uuid`);
}

/** Runs a command on a file: transaction, lock, access check. */
export function withFile<T>(actor: FileActor, fileId: string, run: (tx: Db, file: FileAccess) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const file = await requireFileAccess(tx, actor, fileId, true);
    return run(tx, file);
  });
}

/** For routes: a 404 unless the actor is one of the file's two members (before parsing a form). */
export async function assertFileMember(actor: Pick<FileActor, "profileId">, fileId: string): Promise<void> {
  await requireFileAccess(db, actor, fileId);
}
