// "Supprimer mon compte" (GDPR erasure). What happens, in one transaction:
// - messages the member SENT stay in their recipients' inboxes, anonymised: sender_id null,
//   sender_name 'Membre supprimé', sender_email '' (done first, before the cascade would only
//   null sender_id);
// - deleting the user cascades to sessions, accounts, two-factor, roles, the profile and what
//   hangs from it: certified deals, recommendations received, messages received, mandates and
//   their match requests (including requests other members sent to those mandates) and
//   connection events, payments;
// - collaboration files stay with the other member (references to the gone member become empty,
//   the signed agreements and the timeline are records of a contract); a file whose two members
//   are both gone has nobody left to hold it and is deleted, with its stored documents;
// - invoices and credit notes stay (ten years, Code de commerce L. 123-22): they
//   hold their own copy of the buyer's identity, and their profile and payment references become
//   null, so no member can open them any more;
// - copies of e-mails already sent to the address are removed from the outbox;
// - one audit_log row records the deletion with counts and, for the accounting retention the
//   privacy policy announces, the payment records (amounts, dates, provider references; no
//   personal data).
// Then the browser's session cookie is expired and a last security notice is sent.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { authErrorCode } from "~/auth/auth-errors.server";
import { getAuth } from "~/auth/auth.server";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { mailOutbox, mandates, messages, payments, profiles, user, userRoles } from "~/db/schema";
import { logger } from "~/lib/logger.server";
import { getStorage } from "~/lib/storage/storage.server";
import {
  type AccountActor,
  allowPasswordCheck,
  type CommandOutcome,
  cookiesOf,
  recordAccountEvent,
  sendSecurityNotice,
} from "./account.server";
import { ACCOUNT_MESSAGES } from "./account.schema";
import { invalidate } from "~/lib/cache.server";

export const DELETED_SENDER_NAME = "Membre supprimé";

async function isLastAdmin(userId: string): Promise<boolean> {
  const mine = await db
    .select({ id: userRoles.id })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin")))
    .limit(1);
  if (mine.length === 0) return false;
  const [row] = await db.select({ n: count() }).from(userRoles).where(eq(userRoles.role, "admin"));
  return Number(row?.n ?? 0) <= 1;
}

/** Erases the actor's account after checking their password; on success the headers sign out. */
export async function deleteAccount(request: Request, actor: AccountActor, password: string): Promise<CommandOutcome> {
  if (!(await allowPasswordCheck(actor, "delete-account"))) return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  try {
    await getAuth().api.verifyPassword({ body: { password }, headers: request.headers });
  } catch (error) {
    const code = authErrorCode(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
      return { ok: false, message: ACCOUNT_MESSAGES.wrongPassword, status: 400, field: "password" };
    }
    logger.error({ err: error, code }, "password check before deletion failed");
    return { ok: false, message: ACCOUNT_MESSAGES.unexpected, status: 500 };
  }
  if (await isLastAdmin(actor.id)) return { ok: false, message: ACCOUNT_MESSAGES.lastAdmin, status: 409 };

  await eraseAccount(actor);

  // The session row is gone with the user; sign-out still expires the browser's cookies.
  let headers = new Headers();
  try {
    const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true });
    headers = cookiesOf(result.headers);
  } catch (error) {
    logger.warn({ err: error }, "sign-out after deletion failed");
  }
  await sendSecurityNotice(actor.email, "account-deleted");
  return { ok: true, headers };
}

/** The erasure itself (no password check): see the header comment. */
export async function eraseAccount(actor: AccountActor): Promise<{ anonymisedMessages: number; deletedFiles: number }> {
  const outcome = await db.transaction(async (tx) => {
    const [profile] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, actor.id)).limit(1);
    let anonymisedMessages = 0;
    let deletedMandates = 0;
    let paymentRecords: Array<Record<string, unknown>> = [];
    if (profile) {
      const anonymised = await tx
        .update(messages)
        .set({ senderId: null, senderName: DELETED_SENDER_NAME, senderEmail: "", updatedAt: new Date() })
        .where(eq(messages.senderId, profile.id))
        .returning({ id: messages.id });
      anonymisedMessages = anonymised.length;
      const [m] = await tx.select({ n: count() }).from(mandates).where(eq(mandates.profileId, profile.id));
      deletedMandates = Number(m?.n ?? 0);
      paymentRecords = await tx
        .select({
          provider: payments.provider,
          checkoutSessionId: payments.checkoutSessionId,
          status: payments.status,
          amountCents: payments.amountCents,
          currency: payments.currency,
          paidAt: payments.paidAt,
          createdAt: payments.createdAt,
        })
        .from(payments)
        .where(eq(payments.profileId, profile.id));
    }
    const [row] = await tx.select({ email: user.email }).from(user).where(eq(user.id, actor.id)).limit(1);
    invalidate(`user:${actor.id}`);
    await tx.delete(user).where(eq(user.id, actor.id));
    const orphans = profile ? await deleteOrphanFiles(tx) : { files: 0, storageKeys: [] };
    if (row) {
      await tx
        .delete(mailOutbox)
        .where(and(eq(sql`lower(${mailOutbox.toAddress})`, row.email.toLowerCase()), inArray(mailOutbox.status, ["sent", "failed"])));
    }
    await recordAccountEvent(
      actor,
      "account.deleted",
      { profileId: profile?.id ?? null, anonymisedMessages, deletedMandates, deletedFiles: orphans.files, payments: paymentRecords },
      tx,
    );
    return { anonymisedMessages, deletedFiles: orphans.files, storageKeys: orphans.storageKeys };
  });
  // The bytes go once the rows are gone for good (a failure leaves an unreachable object, logged).
  const storage = getStorage();
  for (const key of outcome.storageKeys) {
    await storage.deleteObject(key).catch((error: unknown) => logger.warn({ err: error }, "stored document of a deleted file could not be removed"));
  }
  return { anonymisedMessages: outcome.anonymisedMessages, deletedFiles: outcome.deletedFiles };
}

/** Deletes the collaboration files both of whose members are gone; returns their stored objects. */
async function deleteOrphanFiles(tx: Db): Promise<{ files: number; storageKeys: string[] }> {
  const keys = await queryRows<{ key: string }>(
    sql`
      select d.storage_key as key from collaboration_documents d join collaboration_files f on f.id = d.file_id
        where f.member_a_id is null and f.member_b_id is null
      union all
      select k.key from fee_agreements a join collaboration_files f on f.id = a.file_id
        cross join lateral (values (a.document_key), (a.signed_key)) as k(key)
        where f.member_a_id is null and f.member_b_id is null and k.key is not null
      union all
      select x.storage_key from mediation_attachments x join mediations m on m.id = x.mediation_id join collaboration_files f on f.id = m.file_id
        where f.member_a_id is null and f.member_b_id is null`,
    tx,
  );
  invalidate("collaboration_files");
  const deleted = await queryRows<{ id: string }>(
    sql`delete from collaboration_files where member_a_id is null and member_b_id is null returning id`,
    tx,
  );
  return { files: deleted.length, storageKeys: keys.map((k) => k.key) };
}
