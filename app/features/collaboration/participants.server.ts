// Participants of a collaboration file beyond its two founding members:
// invitations by e-mail, guest accounts limited to the file, the other founder's approval,
// the confidentiality undertaking, removal, folders and rights. `requireFileParticipant` is THE
// access function: every read or write of a file by anyone but its founders' legacy pages goes
// through it, and it returns the acting person's side, role and rights (founders included).
import type { FileEventDetails, FileEventKind } from "./timeline";
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { signUp } from "~/auth/account.server";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { UNDERTAKING_TEXT } from "~/features/connections/connection-rules";
import { isUuid } from "~/lib/uuid";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { fileUrl, type Stage } from "./collaboration-rules";
import { appendFileEvent, fileConflict, fileNotFound, type FileActor } from "./file-access.server";
import {
  ALL_RIGHTS,
  canApprove,
  canCreateFolder,
  founderSide,
  invitationExpiry,
  invitationUrl,
  sharedFileUrl,
  needsApproval,
  participantState,
  PARTICIPANT_MESSAGES as M,
  ROLE_LABELS,
  SIDE_LABELS,
  STATE_LABELS,
  type FileRole,
  type FileSide,
  type FolderVisibility,
  type ParticipantRole,
  type ParticipantStatus,
  type Rights,
} from "./participant-rules";
import { AppError } from "~/lib/errors/app-error";


const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

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

function refuseUndertaking(): never {
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

function requireFounder(access: FileParticipantAccess): asserts access is FileParticipantAccess & { profileId: string } {
  if (access.kind !== "founder" || !access.profileId) fileConflict(M.notFounder, "forbidden");
}

/** Runs a command as a founder: transaction, file lock, founder check. */
function asFounder<T>(userId: string, fileId: string, run: (tx: Db, access: FileParticipantAccess & { profileId: string }) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const access = await requireFileParticipant(tx, userId, fileId, { lock: true });
    requireFounder(access);
    return run(tx, access);
  });
}

const describe = (email: string, role: ParticipantRole, side: FileSide) => `${email} · ${ROLE_LABELS[role]} · ${SIDE_LABELS[side]}`;

// ---------------------------------------------------------------------------------------------
// Invitations

export type InviteInput = { email: string; role: ParticipantRole; side: FileSide; rights: Rights };

/** A founder invites someone by e-mail; returns the link's secret (in the e-mail only, hashed in the row). */
export async function inviteParticipant(userId: string, fileId: string, input: InviteInput, now = new Date()): Promise<{ participantId: string; token: string }> {
  const email = input.email.trim().toLowerCase();
  return asFounder(userId, fileId, async (tx, access) => {
    const [founderEmail] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from collaboration_files f join profiles p on p.id in (f.member_a_id, f.member_b_id) join "user" u on u.id = p.user_id
        where f.id = ${access.fileId}::uuid and lower(u.email) = ${email}`,
      tx,
    );
    if ((founderEmail?.n ?? 0) > 0) fileConflict(M.founderEmail, "conflict");
    // An open invitation past its date no longer blocks a new one.
    await tx.execute(sql`update collaboration_participants set status = 'withdrawn', ended_at = clock_timestamp()
      where file_id = ${access.fileId}::uuid and lower(email) = ${email} and status = 'invited' and expires_at <= ${now.toISOString()}::timestamptz`);
    const token = randomBytes(32).toString("base64url");
    const rows = await queryRows<{ id: string }>(
      sql`insert into collaboration_participants (file_id, email, role, side, token_hash, expires_at, invited_by, invited_by_name, can_view, can_download, can_upload)
        values (${access.fileId}::uuid, ${email}, ${input.role}, ${input.side}, ${hashToken(token)}, ${invitationExpiry(now).toISOString()}::timestamptz,
          ${access.profileId}::uuid, ${access.name}, ${input.rights.voir}, ${input.rights.voir && input.rights.telecharger}, ${input.rights.voir && input.rights.deposer})
        on conflict do nothing returning id`,
      tx,
    );
    const row = rows[0];
    if (!row) fileConflict(M.alreadyInvited, "conflict");
    await appendParticipantEvent(tx, access, "participant_invited", { name: describe(email, input.role, input.side) });
    // The e-mail names the inviter and the file's reference, never a client.
    await sendNotificationEmail(
      email,
      {
        title: `Invitation à un dossier de transmission (${access.reference})`,
        intro: `${access.name} vous invite à rejoindre le dossier ${access.reference} en tant que ${ROLE_LABELS[input.role].toLowerCase()} (${SIDE_LABELS[input.side].toLowerCase()}).`,
        lines: [
          "Membre du réseau, vous rejoignez le dossier avec votre compte. Sinon, un compte invité limité à ce dossier vous sera créé.",
          `Cette invitation est valable ${7}\u00a0jours.`,
        ],
        ctaLabel: "Voir l’invitation",
        ctaUrl: `${getEnv().APP_URL}${invitationUrl(token)}`,
        footer: "Vous recevez cet e-mail car un membre du réseau vous a invité à un dossier.",
      },
      { kind: "collaboration-invitation", tx },
    );
    return { participantId: row.id, token };
  });
}

async function participantRow(tx: Db, fileId: string, participantId: string) {
  if (!isUuid(participantId)) fileConflict(M.notOpen, "not-found");
  const [row] = await queryRows<{
    id: string;
    email: string;
    role: ParticipantRole;
    side: FileSide;
    status: ParticipantStatus;
    is_guest: boolean;
    user_id: string | null;
    invited_by: string | null;
  }>(
    sql`select id, email, role, side, status, is_guest, user_id, invited_by from collaboration_participants
      where id = ${participantId}::uuid and file_id = ${fileId}::uuid for update`,
    tx,
  );
  if (!row) fileConflict(M.notOpen, "not-found");
  return row;
}

/** A founder withdraws an invitation not yet answered. */
export async function withdrawInvitation(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "invited") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set status = 'withdrawn', ended_at = clock_timestamp() where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_invitation_withdrawn", { name: describe(row.email, row.role, row.side) });
  });
}

/** The other founder approves a guest; only then does the guest see the file. */
export async function approveParticipant(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "awaiting_approval") fileConflict(M.notAwaiting, "conflict");
    if (!canApprove(access.profileId, row.invited_by)) fileConflict(M.cannotApprove, "forbidden");
    await tx.execute(sql`update collaboration_participants set status = 'active', approved_at = clock_timestamp(), approved_by = ${access.profileId}::uuid
      where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_approved", { name: describe(row.email, row.role, row.side) });
    await sendNotificationEmail(
      row.email,
      {
        title: `Accès au dossier ${access.reference} approuvé`,
        intro: "Votre accès au dossier a été approuvé. Signez l’engagement de confidentialité pour le consulter.",
        ctaLabel: "Ouvrir le dossier",
        ctaUrl: `${getEnv().APP_URL}${sharedFileUrl(access.fileId)}`,
        footer: "Vous recevez cet e-mail car vous participez à un dossier sur la plateforme.",
      },
      { kind: "collaboration-participant-approved", tx },
    );
  });
}

/**
 * A founder removes a participant (or refuses a guest awaiting approval): the row ends at once,
 * every later request is refused by requireFileParticipant, and a guest's sessions are deleted —
 * which ends their open live streams too (the session triggers of migration 0015).
 */
export async function removeParticipant(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "active" && row.status !== "awaiting_approval") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set status = 'removed', ended_at = clock_timestamp() where id = ${row.id}::uuid`);
    if (row.is_guest && row.user_id) {
      await tx.execute(sql`delete from session where user_id = ${row.user_id}`);
    }
    await appendParticipantEvent(tx, access, "participant_removed", { name: describe(row.email, row.role, row.side) });
  });
}

/** A founder sets a participant's rights (a right without « voir » is not kept). */
export async function setParticipantRights(userId: string, fileId: string, participantId: string, rights: Rights): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status === "withdrawn" || row.status === "removed") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set can_view = ${rights.voir}, can_download = ${rights.voir && rights.telecharger},
      can_upload = ${rights.voir && rights.deposer} where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_rights_changed", { name: describe(row.email, row.role, row.side) });
  });
}

// ---------------------------------------------------------------------------------------------
// Answering an invitation

export type InvitationView = {
  reference: string;
  invitedByName: string;
  email: string;
  role: ParticipantRole;
  side: FileSide;
  state: ParticipantStatus | "expired";
  stateLabel: string;
  fileId: string;
  /** An account already uses the invited address. */
  accountExists: boolean;
};

type InvitationRow = {
  id: string;
  file_id: string;
  reference: string;
  invited_by_name: string;
  email: string;
  role: ParticipantRole;
  side: FileSide;
  status: ParticipantStatus;
  expires_at: Date | string;
  user_id: string | null;
  account_exists: boolean;
};

async function invitationRow(handle: Db, token: string, lock = false): Promise<InvitationRow | null> {
  if (typeof token !== "string" || token.length < 20 || token.length > 100) return null;
  const [row] = await queryRows<InvitationRow>(
    sql`select cp.id, cp.file_id, f.reference, cp.invited_by_name, cp.email, cp.role, cp.side, cp.status, cp.expires_at, cp.user_id,
        exists (select 1 from "user" u where lower(u.email) = lower(cp.email)) as account_exists
      from collaboration_participants cp join collaboration_files f on f.id = cp.file_id
      where cp.token_hash = ${hashToken(token)} ${lock ? sql`for update of cp` : sql``}`,
    handle,
  );
  return row ?? null;
}

/** What the invitation page shows; null when the link is unknown. Never a client. */
export async function readInvitation(token: string, now = new Date()): Promise<InvitationView | null> {
  const row = await invitationRow(db, token);
  if (!row) return null;
  const state = participantState(row.status, new Date(row.expires_at), now);
  return {
    reference: row.reference,
    invitedByName: row.invited_by_name,
    email: row.email,
    role: row.role,
    side: row.side,
    state,
    stateLabel: STATE_LABELS[state],
    fileId: row.file_id,
    accountExists: row.account_exists,
  };
}

function invitationInvalid(): never {
  fileConflict(M.invitationInvalid, "gone");
}

/** Records a guest account: it will reach only the files it is admitted to. */
export async function markGuestAccount(userId: string, handle: Db = db): Promise<void> {
  await handle.execute(sql`insert into guest_accounts (user_id) values (${userId}) on conflict do nothing`);
}

/**
 * Someone outside the network creates their guest account from an open invitation: better-auth's
 * sign-up (password, e-mail confirmation whose link brings them back to the invitation), then the
 * account is marked as a guest and their name kept on the invitation (a guest has no profile).
 */
export async function signUpGuest(
  request: Request,
  token: string,
  input: { firstName: string; lastName: string; company: string; password: string },
  now = new Date(),
): Promise<{ ok: true; email: string } | { ok: false; message: string; status: number }> {
  const row = await invitationRow(db, token);
  if (!row || participantState(row.status, new Date(row.expires_at), now) !== "invited") return { ok: false, message: M.invitationInvalid, status: 410 };
  if (row.account_exists) return { ok: false, message: M.accountExists, status: 409 };
  const created = await signUp(request, { email: row.email, password: input.password, name: `${input.firstName} ${input.lastName}` }, invitationUrl(token));
  if (!created.ok) return { ok: false, message: created.message, status: created.status };
  await db.transaction(async (tx) => {
    const [u] = await queryRows<{ id: string }>(sql`select id from "user" where lower(email) = ${row.email.toLowerCase()}`, tx);
    if (!u) throw new Error("guest account missing after sign-up");
    await markGuestAccount(u.id, tx);
    await tx.execute(sql`update collaboration_participants set first_name = ${input.firstName}, last_name = ${input.lastName}, company = ${input.company || null}
      where id = ${row.id}::uuid and status = 'invited'`);
  });
  return { ok: true, email: row.email };
}

/**
 * The signed-in user accepts an invitation sent to their address: a validated member joins at
 * once; a guest account waits for the other founder's approval (they are told by e-mail). Any
 * other account (an application in progress) is refused: it must not become a guest silently.
 */
export async function acceptInvitation(user: { id: string; email: string }, token: string, now = new Date()): Promise<{ fileId: string; status: "active" | "awaiting_approval" }> {
  return db.transaction(async (tx) => {
    const row = await invitationRow(tx, token, true);
    if (!row || participantState(row.status, new Date(row.expires_at), now) !== "invited") invitationInvalid();
    if (row.email.toLowerCase() !== user.email.toLowerCase()) fileConflict(M.wrongAccount, "forbidden");
    const [who] = await queryRows<{ profile_id: string | null; first_name: string | null; last_name: string | null; company: string | null; guest: boolean }>(
      sql`select p.id as profile_id, p.first_name, p.last_name, p.company, exists (select 1 from guest_accounts g where g.user_id = ${user.id}) as guest
        from "user" u left join profiles p on p.user_id = u.id and p.profile_status = 'validated' where u.id = ${user.id}`,
      tx,
    );
    const isGuest = Boolean(who?.guest) && !who?.profile_id;
    if (!who?.profile_id && !isGuest) fileConflict(M.wrongAccount, "forbidden");
    const status = needsApproval(isGuest) ? "awaiting_approval" : "active";
    await tx.execute(sql`update collaboration_participants set status = ${status}, user_id = ${user.id}, is_guest = ${isGuest},
        profile_id = ${isGuest ? null : who?.profile_id}::uuid, accepted_at = clock_timestamp(),
        first_name = coalesce(${who?.first_name ?? null}, first_name), last_name = coalesce(${who?.last_name ?? null}, last_name),
        company = coalesce(${who?.company ?? null}, company)
      where id = ${row.id}::uuid`);
    await appendFileEvent(tx, row.file_id, null, "participant_joined", { name: describe(row.email, row.role, row.side) });
    if (isGuest) {
      // The founder who did not invite is asked to approve.
      const [approver] = await queryRows<{ email: string }>(
        sql`select u.email from collaboration_files f join profiles p on p.id in (f.member_a_id, f.member_b_id) join "user" u on u.id = p.user_id
          join collaboration_participants cp on cp.id = ${row.id}::uuid
          where f.id = ${row.file_id}::uuid and p.id is distinct from cp.invited_by limit 1`,
        tx,
      );
      if (approver) {
        await sendNotificationEmail(
          approver.email,
          {
            title: `Un invité attend votre approbation (${row.reference})`,
            intro: `${row.invited_by_name} a invité ${row.email} (${ROLE_LABELS[row.role].toLowerCase()}) au dossier ${row.reference}. Son accès attend votre approbation.`,
            ctaLabel: "Voir les participants",
            ctaUrl: `${getEnv().APP_URL}${fileUrl(row.file_id)}/intervenants`,
          },
          { kind: "collaboration-guest-approval", tx },
        );
      }
    }
    return { fileId: row.file_id, status };
  });
}

/** The participant signs the confidentiality undertaking (same text as the introductions'). */
export async function signParticipantUndertaking(userId: string, fileId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const access = await requireFileParticipant(tx, userId, fileId, { lock: true, beforeUndertaking: true });
    if (!access.participantId || access.undertakingSigned) return;
    await tx.execute(sql`update collaboration_participants set undertaking_signed_at = clock_timestamp() where id = ${access.participantId}::uuid`);
    await appendParticipantEvent(tx, access, "participant_undertaking_signed", { text: UNDERTAKING_TEXT, name: access.name });
  });
}

// ---------------------------------------------------------------------------------------------
// Lists

export type ParticipantEntry = {
  id: string;
  email: string;
  name: string | null;
  company: string | null;
  role: ParticipantRole;
  roleLabel: string;
  side: FileSide;
  sideLabel: string;
  state: ParticipantStatus | "expired";
  stateLabel: string;
  isGuest: boolean;
  rights: Rights;
  expiresAt: string;
  undertakingSigned: boolean;
  /** The acting founder may approve this guest (the other founder invited them). */
  canApprove: boolean;
};

/** The participants of a file, for a founder (every invitation) or a participant (the active ones, no e-mails). */
export async function listParticipants(userId: string, fileId: string, now = new Date()): Promise<{ access: FileParticipantAccess; participants: ParticipantEntry[] }> {
  const access = await requireFileParticipant(db, userId, fileId);
  const founder = access.kind === "founder";
  const rows = await queryRows<{
    id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    company: string | null;
    role: ParticipantRole;
    side: FileSide;
    status: ParticipantStatus;
    is_guest: boolean;
    can_view: boolean;
    can_download: boolean;
    can_upload: boolean;
    expires_at: Date | string;
    invited_by: string | null;
    undertaking_signed_at: Date | string | null;
  }>(sql`select id, email, first_name, last_name, company, role, side, status, is_guest, can_view, can_download, can_upload, expires_at, invited_by, undertaking_signed_at
    from collaboration_participants where file_id = ${access.fileId}::uuid ${founder ? sql`` : sql`and status = 'active'`}
    order by created_at, id`);
  const participants = rows.map((r): ParticipantEntry => {
    const state = participantState(r.status, new Date(r.expires_at), now);
    const name = r.first_name || r.last_name ? `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() : null;
    return {
      id: r.id,
      email: founder ? r.email : "",
      name,
      company: r.company,
      role: r.role,
      roleLabel: ROLE_LABELS[r.role],
      side: r.side,
      sideLabel: SIDE_LABELS[r.side],
      state,
      stateLabel: STATE_LABELS[state],
      isGuest: r.is_guest,
      rights: { voir: r.can_view, telecharger: r.can_download, deposer: r.can_upload },
      expiresAt: new Date(r.expires_at).toISOString(),
      undertakingSigned: r.undertaking_signed_at !== null,
      canApprove: founder && state === "awaiting_approval" && access.profileId !== null && canApprove(access.profileId, r.invited_by),
    };
  });
  return { access, participants };
}

export type SharedFileEntry = { fileId: string; reference: string; status: ParticipantStatus; stateLabel: string; roleLabel: string; sideLabel: string };

/** The files a user was admitted to or awaits, for the shared files' home. */
export async function listSharedFiles(userId: string): Promise<SharedFileEntry[]> {
  const rows = await queryRows<{ file_id: string; reference: string; status: ParticipantStatus; role: ParticipantRole; side: FileSide }>(
    sql`select cp.file_id, f.reference, cp.status, cp.role, cp.side from collaboration_participants cp join collaboration_files f on f.id = cp.file_id
      where cp.user_id = ${userId} and cp.status in ('active', 'awaiting_approval') order by cp.created_at desc`,
  );
  return rows.map((r) => ({
    fileId: r.file_id,
    reference: r.reference,
    status: r.status,
    stateLabel: STATE_LABELS[r.status],
    roleLabel: ROLE_LABELS[r.role],
    sideLabel: SIDE_LABELS[r.side],
  }));
}

// ---------------------------------------------------------------------------------------------
// Folders

export type FolderEntry = { id: string; name: string; visibility: FolderVisibility };

/** A founder creates a folder, shared or for their own side. */
export async function createFolder(userId: string, fileId: string, input: { name: string; visibility: FolderVisibility }): Promise<string> {
  return asFounder(userId, fileId, async (tx, access) => {
    if (!canCreateFolder(access.role, access.side, input.visibility)) fileConflict(M.folderSide, "forbidden");
    const rows = await queryRows<{ id: string }>(
      sql`insert into collaboration_folders (file_id, name, visibility, created_by) values (${access.fileId}::uuid, ${input.name}, ${input.visibility}, ${access.profileId}::uuid)
        on conflict do nothing returning id`,
      tx,
    );
    if (!rows[0]) fileConflict(M.folderExists, "conflict");
    await appendParticipantEvent(tx, access, "folder_created", { name: input.name });
    return rows[0].id;
  });
}

/** The folders this person's side sees (the general folder, id null, is implied and seen by all). */
export async function listVisibleFolders(access: FileParticipantAccess, handle: Db = db): Promise<FolderEntry[]> {
  return queryRows<FolderEntry>(
    sql`select id, name, visibility from collaboration_folders
      where file_id = ${access.fileId}::uuid and (visibility = 'both' or visibility = ${access.side}) order by name, id`,
    handle,
  );
}
