// A file's timeline is evidence: each kind of event is declared once here — the shape of its
// details (a zod schema), its label and its detail line — and the writer, the file page, the
// mediation view and the evidence PDF all go through these declarations. Rows are read tolerantly:
// an unknown kind, or details that no longer match their schema, still read as something.
import { z } from "zod";
import { formatDate } from "~/lib/format";
import { eventLabel, type ConnectionEvent } from "~/features/connections/connection-rules";
import { ABANDON_REASON_LABELS, ABANDON_REASONS, AMOUNT_BAND_LABELS, AMOUNT_BANDS, STAGE_LABELS, STAGES } from "./collaboration-rules";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const named = z.object({ name: z.string() });
const versioned = z.object({ version: z.number().int().positive(), sha256 });
const none = z.null();

/** What a member filters the timeline by. */
export const TIMELINE_GROUPS = {
  steps: "Étapes",
  documents: "Documents",
  signatures: "Engagements et signatures",
  diligence: "Diligences",
  participants: "Intervenants",
} as const;
export type TimelineGroup = keyof typeof TIMELINE_GROUPS;

type Declaration<S extends z.ZodType> = {
  group: TimelineGroup;
  label: string;
  details: S;
  /** The detail line shown under the label, from details that passed the schema. */
  detail?: (details: z.output<S>) => string | null;
};
const declare = <S extends z.ZodType>(d: Declaration<S>) => d;

const withVersion = (d: { version: number; sha256?: string }) => `Version ${d.version}`;

/** Every kind of event a file's timeline holds, besides the introduction's steps copied at opening. */
export const FILE_EVENTS = {
  file_opened: declare({
    group: "steps", label: "Mise en relation confirmée\u00a0: ouverture du dossier", details: none }),
  stage_changed: declare({
    group: "steps",
    label: "Changement d’étape",
    details: z.object({ from: z.enum(STAGES), to: z.enum(STAGES) }),
    detail: (d) => `${STAGE_LABELS[d.from]} → ${STAGE_LABELS[d.to]}`,
  }),
  closing_proposed: declare({
    group: "steps",
    label: "Conclusion proposée",
    details: z.object({ closingDate: z.string().nullable().optional(), amountBand: z.enum(AMOUNT_BANDS).nullable().optional() }),
    detail: (d) =>
      [d.closingDate ? `Signature le ${formatDate(d.closingDate)}` : null, d.amountBand ? AMOUNT_BAND_LABELS[d.amountBand] : null]
        .filter(Boolean)
        .join(" · ") || null,
  }),
  closing_withdrawn: declare({
    group: "steps", label: "Proposition de conclusion retirée", details: none }),
  closing_confirmed: declare({
    group: "steps", label: "Conclusion confirmée\u00a0: dossier conclu", details: none }),
  abandoned: declare({
    group: "steps",
    label: "Dossier abandonné",
    details: z.object({ reason: z.enum(ABANDON_REASONS), text: z.string().nullable().optional() }),
    detail: (d) => [ABANDON_REASON_LABELS[d.reason], d.text].filter(Boolean).join("\u00a0: ") || null,
  }),
  document_shared: declare({
    group: "documents", label: "Document partagé", details: named, detail: (d) => d.name }),
  document_withdrawn: declare({
    group: "documents", label: "Document retiré", details: named, detail: (d) => d.name }),
  document_viewed: declare({
    group: "documents", label: "Document consulté", details: named, detail: (d) => d.name }),
  agreement_created: declare({
    group: "signatures", label: "Convention d’honoraires proposée", details: versioned, detail: withVersion }),
  agreement_cancelled: declare({
    group: "signatures",
    label: "Convention d’honoraires remplacée",
    details: z.object({ version: z.number().int().positive() }),
    detail: withVersion,
  }),
  agreement_signed: declare({
    group: "signatures", label: "Convention d’honoraires signée", details: versioned, detail: withVersion }),
  agreement_completed: declare({
    group: "signatures",
    label: "Convention d’honoraires signée par les deux membres",
    details: versioned,
    detail: (d) => `${withVersion(d)} · SHA-256 de l’exemplaire signé\u00a0: ${d.sha256}`,
  }),
  evidence_exported: declare({
    group: "signatures",
    label: "Historique exporté",
    details: z.object({ sha256, exportedAt: z.string() }),
    detail: (d) => `SHA-256\u00a0: ${d.sha256}`,
  }),
  mediation_opened: declare({
    group: "steps", label: "Médiation ouverte", details: none }),
  mediation_decided: declare({
    group: "steps",
    label: "Médiation close par l’équipe du réseau",
    details: z.object({ outcome: z.enum(["resolved", "dismissed"]) }),
    detail: (d) => (d.outcome === "resolved" ? "Résolue" : "Classée"),
  }),
  deal_proposed: declare({
    group: "steps",
    label: "Dossier proposé comme transaction certifiée",
    details: z.object({ dealId: z.string(), year: z.number().int() }),
    detail: (d) => `Référence ${d.year}, en attente de validation`,
  }),
  mandate_negotiating: declare({
    group: "steps", label: "Mandat passé en négociation", details: named, detail: (d) => d.name }),
  mandate_resumed: declare({
    group: "steps", label: "Mandat remis en recherche active", details: named, detail: (d) => d.name }),
  mandate_concluded: declare({
    group: "steps", label: "Mandat conclu", details: named, detail: (d) => d.name }),
  // The due-diligence list: the request's title; statuses as their codes.
  dd_list_created: declare({
    group: "diligence",
    label: "Liste de diligences créée",
    details: z.object({ count: z.number().int().nonnegative(), template: z.string() }),
    detail: (d) => `${d.count} demandes`,
  }),
  dd_request_added: declare({
    group: "diligence", label: "Demande de diligence ajoutée", details: named, detail: (d) => d.name }),
  dd_request_removed: declare({
    group: "diligence", label: "Demande de diligence supprimée", details: named, detail: (d) => d.name }),
  dd_request_status: declare({
    group: "diligence",
    label: "Statut d’une demande de diligence modifié",
    details: z.object({ name: z.string(), from: z.string(), to: z.string() }),
    detail: (d) => d.name,
  }),
  dd_document_linked: declare({
    group: "diligence", label: "Document rattaché à une demande de diligence", details: named, detail: (d) => d.name }),
  dd_question_asked: declare({
    group: "diligence", label: "Question posée sur une diligence", details: named, detail: (d) => d.name }),
  dd_question_answered: declare({
    group: "diligence", label: "Question de diligence répondue", details: named, detail: (d) => d.name }),
  participant_invited: declare({
    group: "participants", label: "Intervenant invité", details: named, detail: (d) => d.name }),
  participant_invitation_withdrawn: declare({
    group: "participants", label: "Invitation retirée", details: named, detail: (d) => d.name }),
  participant_joined: declare({
    group: "participants", label: "Invitation acceptée", details: named, detail: (d) => d.name }),
  participant_approved: declare({
    group: "participants", label: "Intervenant approuvé", details: named, detail: (d) => d.name }),
  participant_removed: declare({
    group: "participants", label: "Intervenant retiré du dossier", details: named, detail: (d) => d.name }),
  participant_rights_changed: declare({
    group: "participants", label: "Droits d’un intervenant modifiés", details: named, detail: (d) => d.name }),
  participant_undertaking_signed: declare({
    group: "signatures",
    label: "Engagement de confidentialité signé par un intervenant",
    details: z.object({ text: z.string(), name: z.string() }),
    detail: (d) => d.name,
  }),
  folder_created: declare({
    group: "documents", label: "Dossier de documents créé", details: named, detail: (d) => d.name }),
} as const;

export type FileEventKind = keyof typeof FILE_EVENTS;
export type FileEventDetails<K extends FileEventKind> = z.input<(typeof FILE_EVENTS)[K]["details"]>;
/** One event, as the typed builder makes it and the writer stores it. */
export type FileEvent = { [K in FileEventKind]: { kind: K; details: FileEventDetails<K> } }[FileEventKind];

/** The typed builder: checks the details against the kind's schema (a wrong shape is a bug: it throws). */
export function fileEvent<K extends FileEventKind>(kind: K, details: FileEventDetails<K>): { kind: K; details: FileEventDetails<K> } {
  FILE_EVENTS[kind].details.parse(details);
  return { kind, details };
}

/** The introduction's steps, copied into the file at opening as `connection:<event>`. */
const CONNECTION_EVENTS: readonly ConnectionEvent[] = ["requested", "accepted", "rejected", "undertaking_signed", "revealed"];

export function isDeclaredKind(kind: string): boolean {
  if (kind.startsWith("connection:")) return CONNECTION_EVENTS.includes(kind.slice("connection:".length) as ConnectionEvent);
  return Object.hasOwn(FILE_EVENTS, kind);
}

/** The tolerant reader: label and detail line of a stored row, whatever its age. */
export function timelineLabel(kind: string, details: unknown): { label: string; detail: string | null } {
  if (kind.startsWith("connection:")) {
    const event = kind.slice("connection:".length) as ConnectionEvent;
    return { label: CONNECTION_EVENTS.includes(event) ? eventLabel(event) : "Étape de la mise en relation", detail: null };
  }
  if (!Object.hasOwn(FILE_EVENTS, kind)) {
    const name = details && typeof details === "object" && "name" in details && typeof details.name === "string" ? details.name : null;
    return { label: "Activité du dossier", detail: name };
  }
  const declaration = FILE_EVENTS[kind as FileEventKind] as Declaration<z.ZodType>;
  const parsed = declaration.details.safeParse(details ?? null);
  return { label: declaration.label, detail: parsed.success && declaration.detail ? declaration.detail(parsed.data) : null };
}

/** The filter a stored row falls under; the introduction's signature is a signature, its other steps are steps. */
export function timelineGroup(kind: string): TimelineGroup {
  if (kind === "connection:undertaking_signed" || kind === "connection:revealed") return "signatures";
  if (kind.startsWith("connection:") || !Object.hasOwn(FILE_EVENTS, kind)) return "steps";
  return FILE_EVENTS[kind as FileEventKind].group;
}

/** Events per page of the file's timeline (the evidence export and the closing archive read them all). */
export const TIMELINE_PAGE_SIZE = 20;

export function isTimelineGroup(value: unknown): value is TimelineGroup {
  return typeof value === "string" && Object.hasOwn(TIMELINE_GROUPS, value);
}

/**
 * The stored kinds of one group, for a filter in SQL that agrees with `timelineGroup`: a group
 * lists its kinds; « steps » is everything the other groups do not list (the introduction's steps
 * and any kind this release does not know).
 */
export function timelineGroupKinds(group: TimelineGroup): { only: string[] } | { except: string[] } {
  const declared = (g: TimelineGroup) => (Object.keys(FILE_EVENTS) as FileEventKind[]).filter((k) => FILE_EVENTS[k].group === g);
  const listed = (g: Exclude<TimelineGroup, "steps">) => (g === "signatures" ? ["connection:undertaking_signed", "connection:revealed", ...declared(g)] : declared(g));
  if (group !== "steps") return { only: listed(group) };
  return { except: (Object.keys(TIMELINE_GROUPS) as TimelineGroup[]).flatMap((g) => (g === "steps" ? [] : listed(g))) };
}
