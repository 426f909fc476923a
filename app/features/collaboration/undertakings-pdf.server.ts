// The confidentiality undertakings of a collaboration file as a PDF sealed by the platform:
// each member's and each participant's undertaking, its text and date as the file's
// timeline recorded them. Only the file's two members download it (404 for anyone else).
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { UNDERTAKING_TEXT } from "~/features/connections/connection-rules";
import { formatDatePattern } from "~/lib/format";
import type { PdfBlock } from "~/lib/pdf/blocks";
import { textPdfDocument } from "~/lib/pdf/text-pdf.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { createHash } from "node:crypto";
import { AGREEMENT_MESSAGES } from "./agreement-rules";
import { GONE_MEMBER_NAME } from "./member-names";
import { contentDisposition } from "./documents-rules";
import { fileConflict, requireFileAccess, type FileActor } from "./file-access.server";
import { sealOrRefuse } from "./seal-or-refuse.server";

const UNDERTAKINGS_RATE: RateLimitRule = { limit: 30, windowSeconds: 60 * 60 };

export type UndertakingsPdf = { bytes: Uint8Array; sha256: string; disposition: string };

export async function undertakingsPdf(actor: Pick<FileActor, "profileId">, fileId: string, now: Date = new Date()): Promise<UndertakingsPdf> {
  const access = await requireFileAccess(db, actor, fileId);
  const rate = await consumeRateLimit(`undertakings-pdf:${actor.profileId}`, UNDERTAKINGS_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyExports, "rate-limited");
  // The founders' undertakings and those of the participants (guests included) admitted since.
  const signed = await queryRows<{ actor_name: string | null; created_at: Date | string; participant: boolean }>(sql`
    select e.actor_name, e.created_at, e.kind = 'participant_undertaking_signed' as participant from collaboration_events e
    where e.file_id = ${access.id}::uuid and e.kind in ('connection:undertaking_signed', 'participant_undertaking_signed') order by e.created_at, e.id`);
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Engagements de confidentialité" },
    { kind: "subtitle", text: `Dossier de rapprochement ${access.reference} — état au ${formatDatePattern(now, "dd/MM/yyyy 'à' HH:mm")}` },
    { kind: "heading", text: "Texte de l’engagement" },
    { kind: "text", text: `«\u00a0${UNDERTAKING_TEXT}\u00a0»` },
    { kind: "heading", text: "Engagements signés" },
    ...(signed.length
      ? signed.map((s): PdfBlock => ({
          kind: "text",
          text: `${s.actor_name ?? GONE_MEMBER_NAME}${s.participant ? " (intervenant du dossier)" : ""} — signé le ${formatDatePattern(s.created_at, "dd/MM/yyyy 'à' HH:mm")} (${new Date(s.created_at).toISOString()}), signature électronique simple (case de consentement, compte authentifié).`,
        }))
      : [{ kind: "text", text: "Aucun engagement n’a encore été signé dans ce dossier." } satisfies PdfBlock]),
    { kind: "space", text: "" },
    {
      kind: "small",
      text: "Chaque membre signe l’engagement avant que l’identité du client de son confrère lui soit communiquée, et chaque intervenant avant celle des clients du dossier. Ce PDF est scellé et horodaté par la plateforme\u00a0: un lecteur PDF indique s’il a été modifié depuis.",
    },
  ];
  const doc = await textPdfDocument(blocks, { title: "Engagements de confidentialité", createdAt: now });
  const bytes = await sealOrRefuse(doc, { reason: `Engagements de confidentialité du dossier ${access.reference}`, signingTime: now });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { bytes, sha256, disposition: contentDisposition("attachment", `engagements-confidentialite-${access.reference}.pdf`) };
}
