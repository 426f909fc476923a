// THE access function of a file for anyone in it: a founder, a member participant or a guest.
// Every read or write of a file by anyone but its founders' legacy pages goes through
// `requireFileParticipant`, which returns the acting person's side, role and rights.
import type { FileEventDetails, FileEventKind } from "./timeline";
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { type Stage } from "./collaboration-rules";
import { appendFileEvent, fileConflict, fileNotFound, type FileActor } from "./file-access.server";
import {
  ALL_RIGHTS,
  founderSide,
  PARTICIPANT_MESSAGES as M,
  type FileRole,
  type FileSide,
  type ParticipantRole,
  type Rights,
} from "./participant-rules";
import { AppError } from "~/lib/errors/app-error";

// ---------------------------------------------------------------------------------------------
// THE access function

/** The acting person in a file, whoever they are: a founder, a member participant or a guest. */
export type FileParticipantAccess = {
  fileId: string;
  reference: string;
  stage: Stage;
  kind: "founder" | "member" | "guest";
  userId: string;
  /** The profile of a founder or a member participant; null for a guest. */
  profileId: string | null;
  /** The participant row; null for a founder. */
  participantId: string | null;
  side: FileSide;
  role: FileRole;
  rights: Rights;
  name: string;
  company: string | null;
  /** Founders signed theirs before the file opened; participants sign it on the file. */
  undertakingSigned: boolean;
};

type AccessRow = {
  id: string;
  reference: string;
  stage: Stage;
  member_a_id: string | null;
  member_b_id: string | null;
  mandate_a_label: string;
  mandate_b_label: string;
  profile_id: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  participant_id: string | null;
  role: ParticipantRole | null;
  side: FileSide | null;
  is_guest: boolean | null;
  can_view: boolean | null;
  can_download: boolean | null;
  can_upload: boolean | null;
  undertaking_signed_at: Date | string | null;
  cp_first: string | null;
  cp_last: string | null;
  cp_company: string | null;
  guest: boolean;
};

export function refuseUndertaking(): never {
  throw new AppError("forbidden", M.undertakingFirst, { details: { undertaking: true } });
}

/**
 * The file as the signed-in user may act in it, or a 404: a founding member (validated profile),
 * an active member participant (validated profile) or an active, approved guest. A participant
 * who has not signed the confidentiality undertaking is refused (403) unless `beforeUndertaking`
 * (the undertaking page itself). With `lock`, the file row is locked for the transaction.
 */
export async function requireFileParticipant(
  handle: Db,
  userId: string,
  fileId: string,
  options: { lock?: boolean; beforeUndertaking?: boolean } = {},
): Promise<FileParticipantAccess> {
  if (!isUuid(fileId)) fileNotFound();
  const [row] = await queryRows<AccessRow>(
    sql`select f.id, f.reference, f.stage::text as stage, f.member_a_id, f.member_b_id, f.mandate_a_label, f.mandate_b_label,
        p.id as profile_id, p.first_name, p.last_name, p.company,
        cp.id as participant_id, cp.role, cp.side, cp.is_guest, cp.can_view, cp.can_download, cp.can_upload, cp.undertaking_signed_at,
        cp.first_name as cp_first, cp.last_name as cp_last, cp.company as cp_company,
        exists (select 1 from guest_accounts g where g.user_id = ${userId}) as guest
      from collaboration_files f
      left join profiles p on p.user_id = ${userId} and p.profile_status = 'validated'
      left join collaboration_participants cp on cp.file_id = f.id and cp.user_id = ${userId} and cp.status = 'active'
      where f.id = ${fileId}::uuid
      ${options.lock ? sql`for update of f` : sql``}`,
    handle,
  );
  if (!row) fileNotFound();
  const base = { fileId: row.id, reference: row.reference, stage: row.stage, userId };
  const profileId = row.profile_id;
  if (profileId && (profileId === row.member_a_id || profileId === row.member_b_id)) {
    return {
      ...base,
      kind: "founder",
      profileId,
      participantId: null,
      side: founderSide(profileId === row.member_a_id ? row.mandate_a_label : row.mandate_b_label),
      role: "fondateur",
      rights: ALL_RIGHTS,
      name: `${row.first_name ?? ""} ${row.last_name ?? ""}`.trim(),
      company: row.company,
      undertakingSigned: true,
    };
  }
  if (!row.participant_id || !row.role || !row.side) fileNotFound();
  // A member participant needs a validated profile; a guest account never has one.
  const kind = row.is_guest ? "guest" : "member";
  if (kind === "member" && !profileId) fileNotFound();
  if (kind === "guest" && (!row.guest || profileId)) fileNotFound();
  const access: FileParticipantAccess = {
    ...base,
    kind,
    profileId: kind === "member" ? profileId : null,
    participantId: row.participant_id,
    side: row.side,
    role: row.role,
    rights: { voir: row.can_view === true, telecharger: row.can_download === true, deposer: row.can_upload === true },
    name: kind === "member" ? `${row.first_name ?? ""} ${row.last_name ?? ""}`.trim() : `${row.cp_first ?? ""} ${row.cp_last ?? ""}`.trim(),
    company: kind === "member" ? row.company : row.cp_company,
    undertakingSigned: row.undertaking_signed_at !== null,
  };
  if (!access.undertakingSigned && !options.beforeUndertaking) refuseUndertaking();
  return access;
}

/** The timeline's actor for an access (a guest has no profile: their name only). */
function eventActor(access: FileParticipantAccess): FileActor | null {
  if (!access.profileId) return null;
  const [firstName, ...rest] = access.name.split(" ");
  return { profileId: access.profileId, firstName: firstName ?? "", lastName: rest.join(" "), company: access.company };
}

/** Appends an event by this person: a guest's is written under their name without a profile. */
export async function appendParticipantEvent<K extends FileEventKind>(tx: Db, access: FileParticipantAccess, kind: K, details: FileEventDetails<K>): Promise<void> {
  await appendFileEvent(tx, access.fileId, eventActor(access) ?? { guestName: access.name }, kind, details);
}

export function requireFounder(access: FileParticipantAccess): asserts access is FileParticipantAccess & { profileId: string } {
  if (access.kind !== "founder" || !access.profileId) fileConflict(M.notFounder, "forbidden");
}

/** Runs a command as a founder: transaction, file lock, founder check. */
export function asFounder<T>(userId: string, fileId: string, run: (tx: Db, access: FileParticipantAccess & { profileId: string }) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const access = await requireFileParticipant(tx, userId, fileId, { lock: true });
    requireFounder(access);
    return run(tx, access);
  });
}
