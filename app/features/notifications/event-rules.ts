// Every event that concerns a member, declared once: the area its unread count shows on (sidebar
// and phone tab bar), the e-mail preference it sits under, and the to-do it opens, if any (with
// what completes it). The bell, the counts, « Ce qui vous attend » and the digests all read this
// table, so they cannot disagree. Pure.
import { plural } from "~/lib/text";

/** Where an unread notification is counted (the sidebar item and the phone tab). */
export type EventArea = "messages" | "files" | "mandates" | "account";

/** The e-mail preferences, as a member looks for them (one row each in the settings). */
export const EMAIL_KINDS = ["messages", "match_requests", "match_alerts", "files", "mediation", "account"] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export const EMAIL_KIND_LABELS: Record<EmailKind, { label: string; hint: string }> = {
  messages: { label: "Messages", hint: "Un confrère ou un visiteur vous écrit, un message arrive dans un dossier." },
  match_requests: {
    label: "Demandes de mise en relation",
    hint: "Une demande reçue, acceptée ou refusée, une mise en relation confirmée.",
  },
  match_alerts: { label: "Mandats compatibles", hint: "Un nouveau mandat correspond à 60\u00a0% ou plus à l’un de vos mandats." },
  files: {
    label: "Dossiers de rapprochement",
    hint: "Une convention à signer, un document partagé, une étape, une conclusion, une notation, une demande d’audit.",
  },
  mediation: { label: "Médiation", hint: "Une médiation ouverte, une réponse, une décision de l’équipe du réseau." },
  account: {
    label: "Compte et mandats",
    hint: "Les décisions de l’équipe du réseau, un parrainage confirmé, une assurance ou un mandat qui arrive à échéance.",
  },
};

export function isEmailKind(value: unknown): value is EmailKind {
  return typeof value === "string" && (EMAIL_KINDS as readonly string[]).includes(value);
}

/** How often a member gets the e-mails of one kind. */
export const EMAIL_FREQUENCIES = ["immediate", "daily", "weekly", "off"] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];
/**
 * Until a member chooses: the specification's e-mails (a message received, a match request)
 * leave at once; everything else waits for the daily digest.
 */
export const DEFAULT_EMAIL_FREQUENCIES: Record<EmailKind, EmailFrequency> = {
  messages: "immediate",
  match_requests: "immediate",
  match_alerts: "daily",
  files: "daily",
  mediation: "daily",
  account: "daily",
};
export const EMAIL_FREQUENCY_LABELS: Record<EmailFrequency, string> = {
  immediate: "Immédiatement",
  daily: "Résumé quotidien",
  weekly: "Résumé hebdomadaire",
  off: "Jamais",
};

export function isEmailFrequency(value: unknown): value is EmailFrequency {
  return typeof value === "string" && (EMAIL_FREQUENCIES as readonly string[]).includes(value);
}

/** A to-do: what it asks, in the singular and plural of « Ce qui vous attend », and what ends it. */
export type TaskRule = { one: string; many: string; doneWhen: string };

export type EventRule = {
  /** The bell's short label of the kind. */
  label: string;
  area: EventArea;
  email: EmailKind;
  task: TaskRule | null;
};

export const EVENT_RULES = {
  match_request: {
    label: "Demande de mise en relation",
    area: "mandates",
    email: "match_requests",
    task: { one: "demande de mise en relation attend votre réponse", many: "demandes de mise en relation attendent votre réponse", doneWhen: "la demande est acceptée ou refusée" },
  },
  request_accepted: { label: "Demande acceptée", area: "mandates", email: "match_requests", task: null },
  request_refused: { label: "Demande refusée", area: "mandates", email: "match_requests", task: null },
  connection_confirmed: {
    label: "Mise en relation confirmée",
    area: "mandates",
    email: "match_requests",
    task: { one: "engagement de confidentialité à signer", many: "engagements de confidentialité à signer", doneWhen: "l’engagement est signé" },
  },
  new_match: { label: "Mandat compatible", area: "mandates", email: "match_alerts", task: null },
  mandate_expiring: {
    label: "Mandat",
    area: "mandates",
    email: "account",
    task: { one: "mandat arrive à échéance", many: "mandats arrivent à échéance", doneWhen: "le mandat est prolongé, clôturé ou expiré" },
  },
  message: { label: "Message", area: "messages", email: "messages", task: null },
  file_message: { label: "Message de dossier", area: "messages", email: "messages", task: null },
  agreement_to_sign: {
    label: "Convention d’honoraires",
    area: "files",
    email: "files",
    task: { one: "convention d’honoraires à signer", many: "conventions d’honoraires à signer", doneWhen: "vous l’avez signée ou elle est remplacée" },
  },
  agreement_signed: { label: "Convention d’honoraires", area: "files", email: "files", task: null },
  document_shared: { label: "Document", area: "files", email: "files", task: null },
  document_withdrawn: { label: "Document", area: "files", email: "files", task: null },
  stage_changed: { label: "Étape du dossier", area: "files", email: "files", task: null },
  closing_proposed: {
    label: "Conclusion",
    area: "files",
    email: "files",
    task: { one: "conclusion de dossier à confirmer", many: "conclusions de dossier à confirmer", doneWhen: "elle est confirmée, retirée ou remplacée" },
  },
  closing_confirmed: { label: "Conclusion", area: "files", email: "files", task: null },
  file_abandoned: { label: "Dossier abandonné", area: "files", email: "files", task: null },
  dd_request: {
    label: "Audit",
    area: "files",
    email: "files",
    task: { one: "demande d’audit attend un document", many: "demandes d’audit attendent un document", doneWhen: "la demande est fournie ou fermée" },
  },
  dd_question: {
    label: "Question d’audit",
    area: "files",
    email: "files",
    task: { one: "question d’audit attend votre réponse", many: "questions d’audit attendent votre réponse", doneWhen: "la question a une réponse ou est fermée" },
  },
  dd_answer: { label: "Réponse d’audit", area: "files", email: "files", task: null },
  dd_review: {
    label: "Diligence à valider",
    area: "files",
    email: "files",
    task: { one: "diligence fournie attend votre validation", many: "diligences fournies attendent votre validation", doneWhen: "la demande est validée, reprise ou sans objet" },
  },
  rating_open: {
    label: "Notation",
    area: "files",
    email: "files",
    task: { one: "confrère à noter", many: "confrères à noter", doneWhen: "vous avez donné votre note" },
  },
  rating_revealed: { label: "Notation", area: "files", email: "files", task: null },
  mediation_opened: {
    label: "Médiation",
    area: "files",
    email: "mediation",
    task: { one: "médiation attend votre réponse", many: "médiations attendent votre réponse", doneWhen: "vous avez répondu ou la médiation est close" },
  },
  mediation_acknowledged: { label: "Médiation", area: "files", email: "mediation", task: null },
  mediation_answered: { label: "Médiation", area: "files", email: "mediation", task: null },
  mediation: { label: "Médiation", area: "files", email: "mediation", task: null },
  mediation_message: { label: "Message de médiation", area: "messages", email: "messages", task: null },
  mediation_decided: { label: "Médiation", area: "files", email: "mediation", task: null },
  insurance_expiring: {
    label: "Assurance",
    area: "account",
    email: "account",
    task: { one: "attestation d’assurance à renouveler", many: "attestations d’assurance à renouveler", doneWhen: "une nouvelle attestation est déposée" },
  },
  profile_decision: { label: "Profil", area: "account", email: "account", task: null },
  deal_decision: { label: "Transaction", area: "account", email: "account", task: null },
  sponsor_confirmed: { label: "Parrainage", area: "account", email: "account", task: null },
} as const satisfies Record<string, EventRule>;

export type EventKind = keyof typeof EVENT_RULES;
export const EVENT_KINDS = Object.keys(EVENT_RULES) as EventKind[];

export function isEventKind(value: string): value is EventKind {
  return Object.hasOwn(EVENT_RULES, value);
}

export function eventRule(kind: EventKind): EventRule {
  return EVENT_RULES[kind];
}

/** The kinds whose e-mails sit under one preference (the settings and the unsubscribe page say so). */
export function kindsOfEmail(email: EmailKind): EventKind[] {
  return EVENT_KINDS.filter((k) => EVENT_RULES[k].email === email);
}

/**
 * The e-mail kind (`mail.kind` of the outbox) of the file and mediation e-mails, mapped to the event
 * they tell: their senders write the notification and choose the preference from here.
 */
export const EVENT_OF_MAIL_KIND: Record<string, EventKind> = {
  "collaboration-closing": "closing_proposed",
  "collaboration-closing-confirmed": "closing_confirmed",
  "collaboration-abandoned": "file_abandoned",
  "collaboration-message": "file_message",
  "collaboration-document": "document_shared",
  "collaboration-document-withdrawn": "document_withdrawn",
  "collaboration-stage": "stage_changed",
  "collaboration-agreement": "agreement_to_sign",
  "collaboration-agreement-signed": "agreement_signed",
  "rating-open": "rating_open",
  "rating-visible": "rating_revealed",
  "mediation-opened": "mediation_opened",
  "mediation-acknowledged": "mediation_acknowledged",
  "mediation-message": "mediation_message",
  "mediation-status": "mediation",
  "mediation-decision": "mediation_decided",
  "mediation-answered": "mediation_answered",
  "mandate-expiry": "mandate_expiring",
  "insurance-reminder": "insurance_expiring",
};

/** The event an e-mail of that kind tells (`fallback` for a kind the table does not know). */
export function eventOfMailKind(mailKind: string, fallback: EventKind): EventKind {
  return Object.hasOwn(EVENT_OF_MAIL_KIND, mailKind) ? EVENT_OF_MAIL_KIND[mailKind]! : fallback;
}

// ---- to-dos -------------------------------------------------------------------------------------

/**
 * A to-do's key: its kind and its subject (a request, a file, a mandate…). A use case completes
 * it by that key, whatever notification opened it, so a later one on the same subject replaces it.
 */
export function taskKey(kind: EventKind, subject: string): string {
  return `${kind}:${subject}`;
}

export function taskKindOf(key: string): EventKind | null {
  const kind = key.slice(0, key.indexOf(":"));
  return isEventKind(kind) && EVENT_RULES[kind].task ? kind : null;
}

/** An open to-do as the member's browser receives it (from the notification it came with). */
export type OpenTask = { key: string; kind: string; link: string | null; createdAt: string };

/** The open to-dos of one kind, counted in the database (the list the state carries is capped). */
export type TaskTotal = { kind: string; count: number; link: string | null; at: string };

export type TaskGroup = { kind: EventKind; count: number; label: string; to: string; at: string };

/** The totals of a list of open to-dos: one per subject, however many notifications reopened it. */
export function taskTotals(tasks: readonly OpenTask[]): TaskTotal[] {
  const totals = new Map<string, TaskTotal>();
  const seen = new Set<string>();
  for (const t of tasks) {
    const kind = taskKindOf(t.key);
    if (!kind || seen.has(t.key)) continue;
    seen.add(t.key);
    const g = totals.get(kind);
    if (!g) totals.set(kind, { kind, count: 1, link: t.link, at: t.createdAt });
    else {
      g.count++;
      if (t.createdAt > g.at) Object.assign(g, { at: t.createdAt, link: t.link ?? g.link });
    }
  }
  return [...totals.values()];
}

/** « Ce qui vous attend »: open to-dos grouped by kind, the newest group first, linked to the newest. */
export function taskGroups(totals: readonly TaskTotal[]): TaskGroup[] {
  const groups: TaskGroup[] = [];
  for (const t of totals) {
    const kind = isEventKind(t.kind) && EVENT_RULES[t.kind].task ? t.kind : null;
    if (!kind || t.count <= 0) continue;
    const rule = EVENT_RULES[kind].task!;
    groups.push({ kind, count: t.count, label: plural(t.count, rule.one, rule.many), to: t.link ?? "/dashboard", at: t.at });
  }
  return groups.sort((a, b) => b.at.localeCompare(a.at) || EVENT_KINDS.indexOf(a.kind) - EVENT_KINDS.indexOf(b.kind));
}

// ---- counts ----------------------------------------------------------------------------------

export type AreaCounts = Record<EventArea, number>;

/** The unread notifications of each area, from the unread count of each kind. */
export function areaCounts(unreadByKind: Readonly<Record<string, number>>): AreaCounts {
  const counts: AreaCounts = { messages: 0, files: 0, mandates: 0, account: 0 };
  for (const [kind, n] of Object.entries(unreadByKind)) {
    if (isEventKind(kind)) counts[EVENT_RULES[kind].area] += n;
  }
  return counts;
}

// ---- digests -----------------------------------------------------------------------------------

/**
 * The kinds whose e-mail goes out at once whatever the frequency, so no digest repeats them: the
 * team's decision on a profile or a deal carries its reason (a refused applicant has no other way
 * to read it), and a confirmed connection's e-mail is the exchange of contact details itself.
 */
export const OWN_EMAIL_KINDS: readonly EventKind[] = ["profile_decision", "deal_decision", "connection_confirmed"];

/**
 * The kinds a digest carries: every kind whose e-mail is sent at once only for « Immédiatement »,
 * that is all but those with their own e-mail.
 */
export const DIGEST_KINDS: readonly EventKind[] = EVENT_KINDS.filter((k) => !OWN_EMAIL_KINDS.includes(k));

export type DigestFrequency = "daily" | "weekly";
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The period a digest belongs to (Paris days are close enough to UTC days for a morning e-mail;
 * a week starts on Monday): one digest per member, frequency and period start.
 */
export function digestPeriodStart(now: Date, frequency: DigestFrequency): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (frequency === "daily") return day;
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

export type DigestItem = { kind: string; title: string; link: string | null };

/** The digest's lines, grouped by kind under its label: titles only (never a body, never a client). */
export function digestSections(items: readonly DigestItem[]): Array<{ label: string; lines: Array<{ title: string; link: string | null }> }> {
  const byLabel = new Map<string, Array<{ title: string; link: string | null }>>();
  for (const item of items) {
    const label = isEventKind(item.kind) ? EVENT_RULES[item.kind].label : "Notification";
    const lines = byLabel.get(label) ?? [];
    lines.push({ title: item.title, link: item.link });
    byLabel.set(label, lines);
  }
  return [...byLabel].map(([label, lines]) => ({ label, lines }));
}

export function digestSubject(count: number, frequency: DigestFrequency): string {
  const period = frequency === "daily" ? "aujourd’hui" : "cette semaine";
  return `${plural(count, "nouveauté", "nouveautés")} ${period} sur le réseau`;
}
