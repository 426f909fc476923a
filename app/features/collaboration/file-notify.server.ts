// The file's e-mails to the other member: they name the file and the sender, never a client.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { EVENT_RULES, eventOfMailKind, type EventKind, taskKey } from "~/features/notifications/event-rules";
import { recordEvent } from "~/features/notifications/notifications.server";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { fileUrl } from "./collaboration-rules";

/**
 * Tells the file's other member: the notification (and its to-do) always, the e-mail now only when
 * they want this kind at once (otherwise the digest carries it); shared by the file's areas.
 */
export async function notifyCounterpart(
  tx: Db,
  counterpartId: string | null,
  fileId: string,
  mail: { title: string; intro: string; line: string; kind: string; event?: EventKind; dedupeKey?: string },
): Promise<void> {
  if (!counterpartId) return;
  const event = mail.event ?? eventOfMailKind(mail.kind, "stage_changed");
  const task = EVENT_RULES[event].task ? taskKey(event, fileId) : undefined;
  const frequency = await recordEvent(tx, counterpartId, event, { title: mail.title, body: mail.intro, link: fileUrl(fileId) }, {
    whileUnread: event === "file_message",
    ...(task ? { task } : {}),
  });
  if (frequency !== "immediate") return;
  const [r] = await queryRows<{ email: string; reference: string | null }>(
    sql`select u.email, (select f.reference from collaboration_files f where f.id = ${fileId}::uuid) as reference
      from profiles p join "user" u on u.id = p.user_id where p.id = ${counterpartId}::uuid`,
    tx,
  );
  if (!r) return;
  await sendNotificationEmail(
    r.email,
    {
      title: r.reference ? `${mail.title} (${r.reference})` : mail.title,
      intro: mail.intro,
      lines: r.reference ? [`Dossier ${r.reference}.`, mail.line] : [mail.line],
      ctaLabel: "Ouvrir le dossier",
      ctaUrl: `${getEnv().APP_URL}${fileUrl(fileId)}`,
      footer: "Vous recevez cet e-mail car vous êtes membre d’un dossier de rapprochement sur la plateforme.",
      unsubscribeUrl: unsubscribeUrl(counterpartId, EVENT_RULES[event].email),
    },
    { kind: mail.kind, tx, ...(mail.dedupeKey ? { dedupeKey: mail.dedupeKey } : {}) },
  );
}

