// E-mails of the connection flow (spec §7 send-mandate-match-notification): to the target's owner
// on a new request, to both sides once a connection is confirmed. They carry client codes and
// business criteria, never a client's name or address.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { MANDATE_TYPE_LABELS, mandateSummaryLines, sectorsSummary, type MandateType } from "~/features/mandates/mandate-rules";
import { getCounterparts } from "~/features/matching/counterpart.server";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { pairKey } from "./connection-rules";
import { emailFrequencySql } from "~/features/notifications/notifications.server";

const typeLabel = (t: MandateType) => MANDATE_TYPE_LABELS[t].toLowerCase();

export function matchingPanelUrl(mandateId: string): string {
  return `${getEnv().APP_URL}/mandates?matching=${mandateId}`;
}

type RequestMailRow = {
  message: string | null;
  requester_mandate_id: string;
  target_mandate_id: string;
  target_code: string;
  target_owner_id: string;
  notify: boolean;
  target_email: string;
  requester_first_name: string;
  requester_last_name: string;
  requester_company: string;
};

/**
 * E-mail to the owner of the target mandate about a new request (when they want such e-mails at
 * once; otherwise the digest carries its notification).
 * Returns whether one was queued. Errors propagate: the caller only logs them (spec §8).
 */
export async function notifyMatchRequest(requestId: string): Promise<boolean> {
  const [r] = await queryRows<RequestMailRow>(sql`
    select r.message, r.requester_mandate_id, r.target_mandate_id, tm.client_code as target_code,
      tp.id as target_owner_id, ${emailFrequencySql(sql`tp.user_id`, "match_requests")} = 'immediate' as notify, u.email as target_email,
      rp.first_name as requester_first_name, rp.last_name as requester_last_name, rp.company as requester_company
    from mandate_match_requests r
    join mandates tm on tm.id = r.target_mandate_id
    join profiles tp on tp.id = tm.profile_id
    join "user" u on u.id = tp.user_id
    join profiles rp on rp.id = r.requester_profile_id
    where r.id = ${requestId}::uuid`);
  if (!r || !r.notify) return false;
  const requester = (await getCounterparts([r.requester_mandate_id])).get(r.requester_mandate_id);
  if (!requester) return false;
  const name = `${r.requester_first_name} ${r.requester_last_name}`;
  await sendNotificationEmail(
    r.target_email,
    {
      title: "Nouvelle demande de mise en relation",
      intro: `${name} (${r.requester_company}) souhaite mettre en relation son ${typeLabel(requester.mandateType)} «\u00a0${requester.clientCode}\u00a0» avec votre mandat «\u00a0${r.target_code}\u00a0».`,
      lines: [
        [`Secteur\u00a0: ${sectorsSummary(requester)}`, ...mandateSummaryLines(requester).map((l) => `${l.label}\u00a0: ${l.value}`)].join("\n"),
        ...(r.message ? [`Son message\u00a0: «\u00a0${r.message}\u00a0»`] : []),
        "L’identité des clients reste confidentielle tant que la mise en relation n’a pas été acceptée par les deux parties.",
      ],
      ctaLabel: "Voir la demande",
      ctaUrl: matchingPanelUrl(r.target_mandate_id),
      footer: "Vous recevez cet e-mail car un confrère a demandé une mise en relation avec l’un de vos mandats.",
      unsubscribeUrl: unsubscribeUrl(r.target_owner_id, "match_requests"),
    },
    { kind: "match-request", dedupeKey: `match-request:${requestId}` },
  );
  return true;
}

type SideRow = {
  mandate_id: string;
  mandate_type: MandateType;
  client_code: string;
  owner_id: string;
  first_name: string;
  last_name: string;
  company: string;
  email: string;
  notify: boolean;
};

/**
 * 'Les coordonnées ont été échangées par email': each side gets the other's professional
 * contact details (reply-to is the other side). Both e-mails are queued in one transaction, at
 * most once per pair and side. Throws when they cannot be queued.
 */
export async function sendConnectionConfirmedEmails(mandateA: string, mandateB: string): Promise<number> {
  const sides = await queryRows<SideRow>(sql`
    select m.id as mandate_id, m.mandate_type::text as mandate_type, m.client_code, p.id as owner_id,
      p.first_name, p.last_name, p.company, u.email, p.notify_match_requests as notify
    from mandates m join profiles p on p.id = m.profile_id join "user" u on u.id = p.user_id
    where m.id in (${mandateA}::uuid, ${mandateB}::uuid)`);
  if (sides.length !== 2) throw new Error("connection side missing");
  const key = pairKey(mandateA, mandateB);
  return db.transaction(async (tx) => {
    let queued = 0;
    for (const [me, other] of [
      [sides[0], sides[1]],
      [sides[1], sides[0]],
    ]) {
      if (!me.notify) continue;
      const otherName = `${other.first_name} ${other.last_name}`;
      const id = await sendNotificationEmail(
        me.email,
        {
          title: "Mise en relation confirmée",
          intro: `Votre mandat «\u00a0${me.client_code}\u00a0» et le ${typeLabel(other.mandate_type)} «\u00a0${other.client_code}\u00a0» de ${otherName} (${other.company}) sont désormais en relation\u00a0: les deux parties ont accepté.`,
          lines: [
            `Vos coordonnées professionnelles ont été transmises à votre confrère\u00a0; voici les siennes\u00a0:\n${otherName}\n${other.company}\n${other.email}`,
            "L’identité des clients n’est jamais envoyée par e-mail\u00a0: elle s’affiche dans le panneau «\u00a0Matching\u00a0» de votre mandat et dans le dossier de rapprochement (onglet Dossiers de votre espace), une fois votre engagement de confidentialité signé.",
          ],
          ctaLabel: "Voir la mise en relation",
          ctaUrl: matchingPanelUrl(me.mandate_id),
          footer: "Vous recevez cet e-mail car une mise en relation concernant l’un de vos mandats a été confirmée.",
          unsubscribeUrl: unsubscribeUrl(me.owner_id, "match_requests"),
        },
        { kind: "match-confirmed", replyTo: other.email, dedupeKey: `match-confirmed:${key}:${me.owner_id}`, tx },
      );
      if (id !== null) queued++;
    }
    return queued;
  });
}
