// The labels of a file's timeline: the introduction log's steps (copied at opening) and the
// file's own events. Unknown kinds (written by a newer version) still read as something.
import { formatDate } from "~/lib/format";
import { eventLabel, type ConnectionEvent } from "~/features/connections/connection-rules";
import { ABANDON_REASON_LABELS, AMOUNT_BAND_LABELS, STAGE_LABELS, type AbandonReason, type AmountBand, type Stage } from "./collaboration-rules";

const CONNECTION_EVENTS: readonly ConnectionEvent[] = ["requested", "accepted", "rejected", "undertaking_signed", "revealed"];

const FILE_EVENT_LABELS: Record<string, string> = {
  file_opened: "Mise en relation confirmée\u00a0: ouverture du dossier",
  stage_changed: "Changement d’étape",
  closing_proposed: "Conclusion proposée",
  closing_withdrawn: "Proposition de conclusion retirée",
  closing_confirmed: "Conclusion confirmée\u00a0: dossier conclu",
  abandoned: "Dossier abandonné",
  document_shared: "Document partagé",
  document_withdrawn: "Document retiré",
  document_viewed: "Document consulté",
  agreement_created: "Convention d’honoraires proposée",
  agreement_cancelled: "Convention d’honoraires remplacée",
  agreement_signed: "Convention d’honoraires signée",
  agreement_completed: "Convention d’honoraires signée par les deux membres",
  evidence_exported: "Historique exporté",
  mediation_opened: "Médiation ouverte",
  mediation_decided: "Médiation close par l’équipe du réseau",
  deal_proposed: "Dossier proposé comme transaction certifiée",
  mandate_negotiating: "Mandat passé en négociation",
  mandate_resumed: "Mandat remis en recherche active",
  mandate_concluded: "Mandat conclu",
  participant_invited: "Intervenant invité",
  participant_invitation_withdrawn: "Invitation retirée",
  participant_joined: "Invitation acceptée",
  participant_approved: "Intervenant approuvé",
  participant_removed: "Intervenant retiré du dossier",
  participant_rights_changed: "Droits d’un intervenant modifiés",
  participant_undertaking_signed: "Engagement de confidentialité signé par un intervenant",
  folder_created: "Dossier de documents créé",
};

const str = (v: unknown) => (typeof v === "string" ? v : null);


export function timelineLabel(kind: string, details: Record<string, unknown> | null): { label: string; detail: string | null } {
  if (kind.startsWith("connection:")) {
    const event = kind.slice("connection:".length) as ConnectionEvent;
    return { label: CONNECTION_EVENTS.includes(event) ? eventLabel(event) : "Étape de la mise en relation", detail: null };
  }
  const label = FILE_EVENT_LABELS[kind] ?? "Activité du dossier";
  switch (kind) {
    case "stage_changed": {
      const from = str(details?.from) as Stage | null;
      const to = str(details?.to) as Stage | null;
      return { label, detail: from && to && STAGE_LABELS[from] && STAGE_LABELS[to] ? `${STAGE_LABELS[from]} → ${STAGE_LABELS[to]}` : null };
    }
    case "closing_proposed": {
      const date = str(details?.closingDate);
      const band = str(details?.amountBand) as AmountBand | null;
      const parts = [date ? `Signature le ${formatDate(date)}` : null, band && AMOUNT_BAND_LABELS[band] ? AMOUNT_BAND_LABELS[band] : null];
      return { label, detail: parts.filter(Boolean).join(" · ") || null };
    }
    case "abandoned": {
      const reason = str(details?.reason) as AbandonReason | null;
      const text = str(details?.text);
      const base = reason && ABANDON_REASON_LABELS[reason] ? ABANDON_REASON_LABELS[reason] : null;
      return { label, detail: [base, text].filter(Boolean).join("\u00a0: ") || null };
    }
    case "deal_proposed": {
      const year = typeof details?.year === "number" ? details.year : null;
      return { label, detail: year ? `Référence ${year}, en attente de validation` : "En attente de validation" };
    }
    case "agreement_created":
    case "agreement_cancelled":
    case "agreement_signed":
    case "agreement_completed": {
      const version = typeof details?.version === "number" ? details.version : null;
      const sha = kind === "agreement_completed" ? str(details?.sha256) : null;
      return { label, detail: [version ? `Version ${version}` : null, sha ? `SHA-256 de l’exemplaire signé\u00a0: ${sha}` : null].filter(Boolean).join(" · ") || null };
    }
    case "mediation_decided": {
      const outcome = str(details?.outcome);
      return { label, detail: outcome === "resolved" ? "Résolue" : outcome === "dismissed" ? "Classée" : null };
    }
    case "evidence_exported": {
      const sha = str(details?.sha256);
      return { label, detail: sha ? `SHA-256\u00a0: ${sha}` : null };
    }
    default: {
      const name = str(details?.name);
      return { label, detail: name };
    }
  }
}
