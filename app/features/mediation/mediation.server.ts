// Mediation, the members' side and what both sides share: a member of a
// collaboration file asks the team to mediate (subject, facts, optional attachments checked and
// stored like the file's documents), follows the status, the exchange and the decision, and
// writes in the exchange. The team's side is mediation-admin.server.ts. E-mails never carry the
// subject, the facts or a document name (they may hold the client's identity): only who and what
// happened, with a link to the platform.
import type { AuditAction, AuditDetails } from "~/lib/audit/audit-events";
import { recordAudit } from "~/lib/audit/audit.server";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { mediationAttachments, mediationMessages, mediations } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { GONE_MEMBER_NAME } from "~/features/collaboration/member-names";
import { contentDisposition } from "~/features/collaboration/documents-rules";
import { prepareDocument, type PreparedDocument } from "~/features/collaboration/document-checks.server";
import { actorName, appendFileEvent, requireFileAccess, withFile, type FileActor } from "~/features/collaboration/file-access.server";
import { isUuid } from "~/lib/uuid";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { completeTask, recordEvent } from "~/features/notifications/notifications.server";
import { EVENT_RULES, eventOfMailKind, taskKey } from "~/features/notifications/event-rules";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import { DOCUMENT_FORMATS, MB } from "~/lib/storage/upload-rules";
import { adminMediationUrl, isActive, MEDIATION_LIMITS, MEDIATION_MESSAGES, mediationUrl } from "./mediation-rules";
import type { OpenMediationInput } from "./mediation.schema";
import { MEDIATION_COLUMNS, type Handle, type MediationRow } from "./mediation-views.server";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";


const OPEN_RATE: RateLimitRule = { limit: 5, windowSeconds: 24 * 60 * 60 };
const MESSAGE_RATE: RateLimitRule = { limit: 30, windowSeconds: 60 * 60 };
const ATTACHMENT_LIMITS = { maxBytes: MEDIATION_LIMITS.attachmentMaxMb * MB, quotaBytes: MEDIATION_LIMITS.attachmentsMax * MEDIATION_LIMITS.attachmentMaxMb * MB };

/** How the team signs in the exchange (never an admin's personal name or address). */

export function refuse(message: string, code: AppErrorCode): never {
  throw new AppError(code, message);
}

export function mediationNotFound(): never {
  refuse(MEDIATION_MESSAGES.notFound, "not-found");
}

/** The acting member: the file actor plus the account, for the audit log. */
export type MediationActor = FileActor & { userId: string };

export function mediationActor(user: { id: string }, profile: { id: string; firstName: string; lastName: string }): MediationActor {
  return { userId: user.id, profileId: profile.id, firstName: profile.firstName, lastName: profile.lastName };
}

export type UploadedFile = { name: string; bytes: Uint8Array };

// ---------------------------------------------------------------------------------------------
// What the reputation rules read
export type UpheldMediationCounts = { upheld: number; confidentialityBreaches: number };

/**
 * Counts for each given member, keyed by profile id (profiles.id, not the auth user id); members
 * without any upheld mediation get zeros. One statement whatever the number of ids.
 */
export async function upheldMediationCounts(profileIds: readonly string[], handle: Db = db): Promise<Map<string, UpheldMediationCounts>> {
  const ids = [...new Set(profileIds)].filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  const counts = new Map<string, UpheldMediationCounts>(ids.map((id) => [id, { upheld: 0, confidentialityBreaches: 0 }]));
  if (ids.length === 0) return counts;
  const rows = await queryRows<{ profile_id: string; upheld: number | string; breaches: number | string }>(
    sql`select upheld_against_id as profile_id, count(*) as upheld, count(*) filter (where breach_kind = 'confidentiality') as breaches
      from mediations
      where upheld and status = 'resolved' and upheld_against_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      group by upheld_against_id`,
    handle,
  );
  for (const r of rows) counts.set(r.profile_id, { upheld: Number(r.upheld), confidentialityBreaches: Number(r.breaches) });
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Audit and e-mails (inside the caller's transaction)

export async function auditMediation<A extends AuditAction & `mediation.${string}`>(
  tx: Handle,
  actorUserId: string,
  action: A,
  mediationId: string,
  details: AuditDetails<A>,
): Promise<void> {
  await recordAudit(tx, { actorUserId, action, targetId: mediationId, details });
}

const FOOTER = "Vous recevez cet e-mail car vous êtes membre d’un dossier de rapprochement faisant l’objet d’une médiation.";

/**
 * Tells one member of the file: the notification (and its to-do) always, the e-mail now only when
 * they want mediation e-mails at once (otherwise the digest carries it).
 */
export async function mailMember(
  tx: Handle,
  profileId: string | null,
  fileId: string,
  mail: { title: string; intro: string; lines?: string[]; kind: string; dedupeKey?: string; task?: string },
): Promise<void> {
  if (!profileId) return;
  const event = eventOfMailKind(mail.kind, "mediation");
  const frequency = await recordEvent(tx as Db, profileId, event, { title: mail.title, body: mail.intro, link: mediationUrl(fileId) }, mail.task ? { task: mail.task } : {});
  if (frequency !== "immediate") return;
  const [r] = await queryRows<{ email: string }>(sql`select u.email from profiles p join "user" u on u.id = p.user_id where p.id = ${profileId}::uuid`, tx);
  if (!r) return;
  await sendNotificationEmail(
    r.email,
    {
      title: mail.title,
      intro: mail.intro,
      lines: [...(mail.lines ?? []), "Pour préserver la confidentialité, le détail se consulte dans le dossier, sur la plateforme."],
      ctaLabel: "Voir la médiation",
      ctaUrl: `${getEnv().APP_URL}${mediationUrl(fileId)}`,
      footer: FOOTER,
      unsubscribeUrl: unsubscribeUrl(profileId, EVENT_RULES[event].email),
    },
    { kind: mail.kind, tx, ...(mail.dedupeKey ? { dedupeKey: mail.dedupeKey } : {}) },
  );
}

/** An e-mail to every administrator. */
export async function mailAdmins(tx: Handle, mediationId: string, mail: { title: string; intro: string; kind: string; dedupeKey?: string }): Promise<void> {
  const admins = await queryRows<{ email: string }>(
    sql`select distinct u.email from user_roles r join "user" u on u.id = r.user_id where r.role = 'admin' order by u.email`,
    tx,
  );
  for (const a of admins) {
    await sendNotificationEmail(
      a.email,
      {
        title: mail.title,
        intro: mail.intro,
        ctaLabel: "Ouvrir la médiation",
        ctaUrl: `${getEnv().APP_URL}${adminMediationUrl(mediationId)}`,
        footer: "Vous recevez cet e-mail car vous administrez le réseau.",
      },
      { kind: mail.kind, tx, ...(mail.dedupeKey ? { dedupeKey: `${mail.dedupeKey}:${a.email}` } : {}) },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Opening

function attachmentKey(fileId: string, doc: PreparedDocument): string {
  return `${PRIVATE_DOCUMENTS_PREFIX}${fileId}/mediation/${randomBytes(16).toString("hex")}.${DOCUMENT_FORMATS[doc.type].extension}`;
}

async function dropStored(keys: string[]): Promise<void> {
  for (const key of keys) {
    await getStorage()
      .deleteObject(key)
      .catch((e: unknown) => logger.warn({ err: e, key }, "orphan mediation attachment could not be deleted"));
  }
}

/**
 * Opens a mediation in the file: the request, its attachments, the file's timeline event, the
 * audit row and the e-mails (the other member, the team) in one transaction. One mediation at a
 * time per file. The attachments are checked (type from the bytes, size) and stored first; if
 * anything fails afterwards they are deleted.
 */
export async function openMediation(actor: MediationActor, fileId: string, input: OpenMediationInput, files: UploadedFile[] = []): Promise<{ mediationId: string }> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!access.counterpartId) refuse(MEDIATION_MESSAGES.counterpartGone, "conflict");
  if (files.length > MEDIATION_LIMITS.attachmentsMax) refuse(MEDIATION_MESSAGES.tooManyAttachments, "invalid");
  const rate = await consumeRateLimit(`mediation-open:${actor.profileId}`, OPEN_RATE);
  if (!rate.allowed) refuse(MEDIATION_MESSAGES.tooManyRequests, "rate-limited");
  const docs: PreparedDocument[] = [];
  for (const file of files) docs.push(await prepareDocument(file, ATTACHMENT_LIMITS));

  const stored: { key: string; doc: PreparedDocument }[] = [];
  try {
    for (const doc of docs) {
      const key = attachmentKey(access.id, doc);
      await getStorage().putObject(key, doc.bytes, DOCUMENT_FORMATS[doc.type].contentType);
      stored.push({ key, doc });
    }
  } catch (error) {
    logger.error({ err: error }, "mediation attachment could not be stored");
    await dropStored(stored.map((s) => s.key));
    refuse("Les pièces n’ont pas pu être enregistrées. Veuillez réessayer.", "failed");
  }
  try {
    return await withFile(actor, access.id, async (tx, file) => {
      const [active] = await queryRows<{ id: string }>(
        sql`select id from mediations where file_id = ${file.id}::uuid and status in ('open', 'in_progress') limit 1`,
        tx,
      );
      if (active) refuse(MEDIATION_MESSAGES.alreadyActive, "conflict");
      const [other] = await queryRows<{ first_name: string; last_name: string }>(
        sql`select first_name, last_name from profiles where id = ${file.counterpartId}::uuid`,
        tx,
      );
      const respondentName = other ? `${other.first_name} ${other.last_name}`.trim() : GONE_MEMBER_NAME;
      const [row] = await tx
        .insert(mediations)
        .values({
          fileId: file.id,
          openedBy: actor.profileId,
          openedByName: actorName(actor),
          respondentId: file.counterpartId,
          respondentName,
          subject: input.subject,
          facts: input.facts,
        })
        .returning({ id: mediations.id });
      for (const s of stored) {
        await tx.insert(mediationAttachments).values({
          mediationId: row.id,
          uploaderProfileId: actor.profileId,
          name: s.doc.name,
          contentType: DOCUMENT_FORMATS[s.doc.type].contentType,
          sizeBytes: s.doc.bytes.byteLength,
          sha256: s.doc.sha256,
          storageKey: s.key,
        });
      }
      await appendFileEvent(tx, file.id, actor, "mediation_opened", null);
      await auditMediation(tx, actor.userId, "mediation.open", row.id, { target: `${actorName(actor)} / ${respondentName}`, attachments: stored.length });
      await mailMember(tx, file.counterpartId, file.id, {
        title: "Une médiation a été ouverte dans votre dossier de rapprochement",
        intro: `${actorName(actor)} a demandé une médiation à l’équipe du réseau dans votre dossier de rapprochement commun.`,
        lines: ["L’équipe du réseau va examiner la demande et pourra vous contacter dans le dossier. Vous pouvez y lire la demande et y répondre."],
        kind: "mediation-opened",
        task: taskKey("mediation_opened", row.id),
      });
      // Whoever opens a mediation hears that the team received it.
      await mailMember(tx, actor.profileId, file.id, {
        title: "Votre demande de médiation est bien reçue",
        intro: "L’équipe du réseau a reçu votre demande de médiation dans votre dossier de rapprochement : elle va l’examiner et reviendra vers vous dans le dossier.",
        kind: "mediation-acknowledged",
      });
      await mailAdmins(tx, row.id, {
        title: "Nouvelle demande de médiation",
        intro: `${actorName(actor)} demande une médiation dans un dossier de rapprochement avec ${respondentName}.`,
        kind: "mediation-opened-admin",
      });
      return { mediationId: row.id };
    });
  } catch (error) {
    await dropStored(stored.map((s) => s.key));
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The exchange

/** Locks a mediation row (the caller's transaction) or throws a 404. */
export async function lockMediation(tx: Handle, mediationId: string, fileId?: string): Promise<MediationRow> {
  if (!isUuid(mediationId)) mediationNotFound();
  const [row] = await queryRows<MediationRow>(
    sql`select ${MEDIATION_COLUMNS} from mediations m where m.id = ${mediationId}::uuid ${fileId ? sql`and m.file_id = ${fileId}::uuid` : sql``} for update`,
    tx,
  );
  if (!row) mediationNotFound();
  return row;
}

export async function consumeMessageRate(key: string): Promise<void> {
  const rate = await consumeRateLimit(`mediation-message:${key}`, MESSAGE_RATE);
  if (!rate.allowed) refuse(MEDIATION_MESSAGES.tooManyMessages, "rate-limited");
}

/** A member writes in the exchange of an open or in-progress mediation of their file. */
export async function postMemberMediationMessage(actor: MediationActor, fileId: string, mediationId: string, body: string): Promise<void> {
  await requireFileAccess(db, actor, fileId);
  await consumeMessageRate(actor.profileId);
  await withFile(actor, fileId, async (tx, file) => {
    const m = await lockMediation(tx, mediationId, file.id);
    if (!isActive(m.status)) refuse(MEDIATION_MESSAGES.closedForMessages, "conflict");
    // The respondent's first word is their answer to the opening: the opener hears of it as such.
    const answers =
      actor.profileId === m.respondent_id &&
      (await queryRows<{ n: number }>(
        sql`select count(*)::int as n from mediation_messages where mediation_id = ${m.id}::uuid and author_profile_id = ${actor.profileId}::uuid`,
        tx,
      ))[0]?.n === 0;
    await tx.insert(mediationMessages).values({ mediationId: m.id, authorRole: "member", authorProfileId: actor.profileId, authorName: actorName(actor), body, createdAt: sql`clock_timestamp()` });
    await tx.execute(sql`update mediations set updated_at = now() where id = ${m.id}::uuid`);
    await auditMediation(tx, actor.userId, "mediation.message", m.id, { target: `${m.opened_by_name} / ${m.respondent_name}` });
    // The respondent's first answer is what the opening asked of them.
    await completeTask(taskKey("mediation_opened", m.id), tx as Db, { profileId: actor.profileId });
    const slot = Math.floor(Date.now() / (15 * 60_000));
    await mailMember(
      tx,
      file.counterpartId,
      file.id,
      answers
        ? {
            title: "Votre confrère a répondu à la médiation",
            intro: `${actorName(actor)} a répondu à la médiation que vous avez ouverte sur votre dossier de rapprochement commun.`,
            kind: "mediation-answered",
            dedupeKey: `mediation-answered:${m.id}`,
          }
        : {
            title: "Nouveau message dans une médiation",
            intro: `${actorName(actor)} a écrit dans la médiation de votre dossier de rapprochement commun.`,
            kind: "mediation-message",
            dedupeKey: `mediation-message:${m.id}:${file.counterpartId}:${slot}`,
          },
    );
    await mailAdmins(tx, m.id, {
      title: "Nouveau message dans une médiation",
      intro: `${actorName(actor)} a écrit dans une médiation.`,
      kind: "mediation-message-admin",
      dedupeKey: `mediation-message-admin:${m.id}:${slot}`,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Attachments

/**
 * An attachment's bytes for the member who joined it or an administrator; a 404 for anyone
 * else (the same answer as for an unknown id, so nothing is learnt).
 */
export async function openMediationAttachment(viewer: { profileId: string | null; isAdmin: boolean }, attachmentId: string) {
  if (!isUuid(attachmentId)) mediationNotFound();
  const [row] = await queryRows<{ storage_key: string; name: string; content_type: string; sha256: string; uploader_profile_id: string | null }>(
    sql`select storage_key, name, content_type, sha256, uploader_profile_id from mediation_attachments where id = ${attachmentId}::uuid`,
  );
  if (!row || !(viewer.isAdmin || (viewer.profileId !== null && row.uploader_profile_id === viewer.profileId))) mediationNotFound();
  // Streamed, and checked against the SHA-256 recorded when it was joined.
  const object = await getStorage().openObject(row.storage_key, { sha256: row.sha256 });
  if (!object) mediationNotFound();
  const inline = row.content_type === "application/pdf" || row.content_type.startsWith("image/");
  return { object, contentType: row.content_type, disposition: contentDisposition(inline ? "inline" : "attachment", row.name) };
}
