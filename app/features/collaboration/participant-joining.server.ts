// Answering an invitation: reading it, a guest account's sign-up (limited to the file), accepting
// it with one's account, and the participant's confidentiality undertaking.
import { sql } from "drizzle-orm";
import { signUp } from "~/auth/account.server";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { UNDERTAKING_TEXT } from "~/features/connections/connection-rules";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { fileUrl } from "./collaboration-rules";
import { appendFileEvent, fileConflict } from "./file-access.server";
import {
  invitationUrl,
  needsApproval,
  participantState,
  PARTICIPANT_MESSAGES as M,
  ROLE_LABELS,
  STATE_LABELS,
  type FileSide,
  type ParticipantRole,
  type ParticipantStatus,
} from "./participant-rules";
import { appendParticipantEvent, requireFileParticipant } from "./participant-access.server";
import { describeInvitee, hashToken } from "./participant-invitations.server";

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
    await appendFileEvent(tx, row.file_id, null, "participant_joined", { name: describeInvitee(row.email, row.role, row.side) });
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
