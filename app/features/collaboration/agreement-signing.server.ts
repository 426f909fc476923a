// Signing the fee-sharing agreement: each member signs the exact bytes with their password or a
// two-factor code, and the second signature seals it.
import { sql } from "drizzle-orm";
import { verifyPassword } from "~/auth/password.server";
import { claimTotpCode, releaseTotpCode } from "~/auth/totp-replay.server";
import { db, type Db } from "~/db/client.server";
import { feeAgreementSignatures } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { allowPasswordCheck } from "~/features/account/account.server";
import { isUuid } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { getStorage } from "~/lib/storage/storage.server";
import { AGREEMENT_MESSAGES, canSignAgreement } from "./agreement-rules";
import { type Stage } from "./collaboration-rules";
import { notifyCounterpart } from "./file-notify.server";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { actorName, appendFileEvent, fileConflict, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { type AgreementRow, memberOf, type SignatureRow } from "./agreement-records.server";
import { sealAgreement } from "./agreement-seal.server";

// ---------------------------------------------------------------------------------------------
// Signing

export type SignatureContext = { ipAddress: string | null; userAgent: string | null };
export type SignatureCredential = { password?: string; code?: string };

type CheckedCredential = { method: "password" | "totp"; release: () => Promise<void> };

/**
 * Checks the signer's credential like the account's own commands do: counted against the
 * account's password-check budget; the password against the stored argon2id hash (the hasher
 * better-auth is configured with); with two-factor authentication, a code of the authenticator
 * app, claimed once (TOTP replay protection).
 */
async function checkCredential(userId: string, email: string, credential: SignatureCredential): Promise<CheckedCredential> {
  if (!(await allowPasswordCheck({ id: userId, email }, "agreement-signature"))) fileConflict(AGREEMENT_MESSAGES.tooManyAttempts, "rate-limited");
  const [u] = await queryRows<{ two_factor_enabled: boolean | null }>(sql`select two_factor_enabled from "user" where id = ${userId}`);
  if (u?.two_factor_enabled) {
    const code = credential.code?.replace(/\s/g, "") ?? "";
    if (!/^\d{6}$/.test(code)) fileConflict(AGREEMENT_MESSAGES.code, "invalid");
    const claim = await claimTotpCode(userId, code);
    if (claim === "reused") fileConflict(AGREEMENT_MESSAGES.codeReused, "invalid");
    if (claim === "no-match") fileConflict(AGREEMENT_MESSAGES.wrongCode, "invalid");
    return { method: "totp", release: () => releaseTotpCode(userId, code) };
  }
  const password = credential.password ?? "";
  if (!password) fileConflict(AGREEMENT_MESSAGES.credential, "invalid");
  const [acc] = await queryRows<{ password: string | null }>(
    sql`select password from account where user_id = ${userId} and provider_id = 'credential' and password is not null limit 1`,
  );
  if (!acc?.password || !(await verifyPassword({ hash: acc.password, password }))) fileConflict(AGREEMENT_MESSAGES.wrongPassword, "invalid");
  return { method: "password", release: async () => undefined };
}

export type SignOutcome = { completed: boolean; version: number };

/**
 * One member signs the current version. Refused (and nothing changes) for another file's
 * version, a version that is no longer current or whose bytes are not the ones read, a second
 * signature by the same member, a wrong password or code. The second signature seals the
 * agreement: the signed PDF with its certificate page is stored, its SHA-256 recorded.
 */
export async function signAgreement(
  actor: FileActor,
  fileId: string,
  input: { agreementId: string; documentSha256: string } & SignatureCredential,
  context: SignatureContext,
  now: Date = new Date(),
): Promise<SignOutcome> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!isUuid(input.agreementId)) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  // Checked before the credential (a code is not spent on a stale page), and again under the lock.
  const check = (row: AgreementRow | undefined, stage: Stage, signed: SignatureRow[]) => {
    if (!row) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
    if (row.status === "signed") fileConflict(signed.some((s) => s.profile_id === actor.profileId) ? AGREEMENT_MESSAGES.alreadySigned : AGREEMENT_MESSAGES.signedFinal);
    if (row.status !== "pending" || row.document_sha256 !== input.documentSha256) fileConflict(AGREEMENT_MESSAGES.outdated);
    if (!canSignAgreement(stage)) fileConflict(AGREEMENT_MESSAGES.closedSign);
    if (signed.some((s) => s.profile_id === actor.profileId)) fileConflict(AGREEMENT_MESSAGES.alreadySigned);
  };
  const load = async (handle: Db, lock: boolean) => {
    const [row] = await queryRows<AgreementRow>(
      sql`select id, version, status::text as status, terms, created_by, document_key, document_sha256, signed_key, signed_sha256,
        signed_at, cancelled_at, created_at from fee_agreements where id = ${input.agreementId}::uuid and file_id = ${access.id}::uuid
        ${lock ? sql`for update` : sql``}`,
      handle,
    );
    const signed = row
      ? await queryRows<SignatureRow>(
          sql`select agreement_id, profile_id, signer_name, document_sha256, ip_address, user_agent, method, signed_at
            from fee_agreement_signatures where agreement_id = ${row.id}::uuid order by signed_at, id`,
          handle,
        )
      : [];
    return { row, signed };
  };
  const first = await load(db, false);
  check(first.row, access.stage, first.signed);

  const me = await memberOf(db, actor.profileId);
  if (!me) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const [account] = await queryRows<{ email: string }>(sql`select email from "user" where id = ${me.user_id}`);
  const credential = await checkCredential(me.user_id, account?.email ?? "", input);

  // The second signature seals the agreement. The signed copy is made and stored before the
  // transaction (storage is never called under the file's lock); the transaction then checks that
  // the signatures it was made from are still the only ones, or refuses and deletes it.
  const storage = getStorage();
  const agreement = first.row!;
  const signedAt = new Date(Math.max(now.getTime(), Date.now()));
  const mine: SignatureRow = {
    agreement_id: agreement.id,
    profile_id: actor.profileId,
    signer_name: actorName(actor),
    document_sha256: agreement.document_sha256,
    ip_address: context.ipAddress?.slice(0, 100) ?? null,
    user_agent: context.userAgent?.slice(0, 500) ?? null,
    method: credential.method,
    signed_at: signedAt,
  };
  const all = [...first.signed, mine];
  // Both members signed (a departed member's signature still counts: it was given).
  const completes = all.length >= 2;
  let sealed: { key: string; sha256: string } | null = null;
  try {
    if (completes) sealed = await sealAgreement(access, agreement, all, signedAt);
    return await withFile(actor, access.id, async (tx, file) => {
      const { row, signed } = await load(tx, true);
      check(row, file.stage, signed);
      if (signed.length !== first.signed.length) fileConflict(AGREEMENT_MESSAGES.outdated);
      await tx.insert(feeAgreementSignatures).values({
        agreementId: agreement.id,
        profileId: actor.profileId,
        signerName: mine.signer_name,
        documentSha256: mine.document_sha256,
        ipAddress: mine.ip_address,
        userAgent: mine.user_agent,
        method: mine.method,
        signedAt,
      });
      await appendFileEvent(tx, file.id, actor, "agreement_signed", { version: agreement.version, sha256: agreement.document_sha256 });
      await completeTask(taskKey("agreement_to_sign", file.id), tx, { profileId: actor.profileId });
      if (!sealed) {
        await notifyCounterpart(tx, file.counterpartId, file.id, {
          title: "Votre confrère a signé la convention d’honoraires",
          intro: `${actorName(actor)} a signé la convention de partage d’honoraires (version ${agreement.version}) de votre dossier de rapprochement commun.`,
          line: "Elle sera définitive quand vous l’aurez signée à votre tour, depuis le dossier.",
          kind: "collaboration-agreement",
        });
        return { completed: false, version: agreement.version };
      }
      await tx.execute(sql`update fee_agreements set status = 'signed', signed_key = ${sealed.key}, signed_sha256 = ${sealed.sha256},
        signed_at = ${signedAt.toISOString()}::timestamptz where id = ${agreement.id}::uuid`);
      await appendFileEvent(tx, file.id, null, "agreement_completed", { version: agreement.version, sha256: sealed.sha256 });
      await notifyCounterpart(tx, file.counterpartId, file.id, {
        title: "La convention d’honoraires est signée",
        intro: `${actorName(actor)} a signé à son tour\u00a0: la convention de partage d’honoraires (version ${agreement.version}) de votre dossier de rapprochement commun est signée par les deux membres.`,
        line: "L’exemplaire signé, avec son certificat de signature, se télécharge depuis le dossier.",
        kind: "collaboration-agreement-signed",
      });
      return { completed: true, version: agreement.version };
    });
  } catch (error) {
    await credential.release().catch(() => undefined);
    const key = sealed?.key;
    if (key) await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan signed agreement could not be deleted"));
    throw error;
  }
}
