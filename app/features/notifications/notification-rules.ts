// Pure rules of the notification centre: the kinds, their French texts, what a
// link may be, the retention, the unread badge, the live stream's wire format and the client's
// reconnection delays. Texts carry client codes and subjects, never a confidential client's
// name or address (canary suite).
import { type AreaCounts, EVENT_KINDS, EVENT_RULES, type EventKind, isEventKind, type TaskTotal } from "./event-rules";

// The kinds are the events of the rules table (event-rules.ts), declared there once.
export const NOTIFICATION_KINDS: readonly EventKind[] = EVENT_KINDS;
export type NotificationKind = EventKind;

export const NOTIFICATION_KIND_LABELS = Object.fromEntries(EVENT_KINDS.map((k) => [k, EVENT_RULES[k].label])) as Record<NotificationKind, string>;

/** A notification as the member's browser receives it. */
export type NotificationItem = {
  id: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  createdAt: string;
  read: boolean;
};

/**
 * The bell's feed, the unread counts of each area and the open to-dos counted per kind, read
 * together (the to-dos themselves are listed page by page: openTasksPage).
 */
export type NotificationState = { unread: number; items: NotificationItem[]; counts: AreaCounts; taskTotals: TaskTotal[] };

export const EMPTY_COUNTS: AreaCounts = { messages: 0, files: 0, mandates: 0, account: 0 };

/** Notifications are deleted this many days after they were created. */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** How many of the latest notifications the bell and the page show. */
export const NOTIFICATION_LIST_SIZE = 30;
export const TITLE_MAX = 160;
export const BODY_MAX = 300;

export function isNotificationKind(value: string): value is NotificationKind {
  return isEventKind(value);
}

/** Only a path of this application: "/x…", not "//host" nor "/\host" (both leave the site). */
export function isInternalLink(link: string): boolean {
  return /^\/(?![/\\])[^\s]*$/.test(link) && link.length <= 500;
}

/** The retention cut-off: rows created before it are purged. */
export function retentionCutoff(now: Date, days = NOTIFICATION_RETENTION_DAYS): Date {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
}

/** The badge: nothing at 0, "99+" past 99. */
export function unreadBadge(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? "99+" : String(unread);
}

/** The bell's accessible name. */
export function bellLabel(unread: number): string {
  if (unread <= 0) return "Notifications, aucune non lue";
  return `Notifications, ${unread} non lue${unread > 1 ? "s" : ""}`;
}

export function clip(text: string, max: number): string {
  // Ordinary whitespace only: the non-breaking spaces of French typography stay.
  const t = text.replace(/[ \t\r\n]+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** One Server-Sent Events message (each data line prefixed, so a payload cannot forge events). */
export function sseMessage(event: string, data: unknown, id?: string): string {
  const lines = JSON.stringify(data)
    .split(/\r\n|\r|\n/)
    .map((l) => `data: ${l}`)
    .join("\n");
  return `${id ? `id: ${id}\n` : ""}event: ${event}\n${lines}\n\n`;
}

/** The client's wait before reconnecting after its n-th failure in a row (1 s → 30 s). */
export function reconnectDelayMs(failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1));
}

/** After this many failures in a row the client stops reconnecting and polls instead. */
export const MAX_STREAM_FAILURES = 5;
/** The polling period of the fallback (no EventSource, or the stream keeps failing). */
export const POLL_INTERVAL_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Texts of each kind (the caller passes what it knows; the member's own codes and subjects).

export type NotificationText = { title: string; body: string | null; link: string | null };

export const notificationTexts = {
  matchRequest: (p: { requesterName: string; targetCode: string; targetMandateId: string }): NotificationText => ({
    title: "Nouvelle demande de mise en relation",
    body: `${p.requesterName} souhaite une mise en relation avec votre mandat «\u00a0${p.targetCode}\u00a0».`,
    link: `/mandates?matching=${p.targetMandateId}`,
  }),
  requestAccepted: (p: { ownerName: string; requesterCode: string; requesterMandateId: string }): NotificationText => ({
    title: "Demande acceptée",
    body: `${p.ownerName} a accepté votre demande pour votre mandat «\u00a0${p.requesterCode}\u00a0».`,
    link: `/mandates?matching=${p.requesterMandateId}`,
  }),
  requestRefused: (p: { requesterCode: string; requesterMandateId: string }): NotificationText => ({
    title: "Demande refusée",
    body: `Votre demande de mise en relation pour votre mandat «\u00a0${p.requesterCode}\u00a0» n’a pas été retenue.`,
    link: `/mandates?matching=${p.requesterMandateId}`,
  }),
  newMatch: (p: { ownCode: string; score: number; mandateId: string }): NotificationText => ({
    title: "Nouveau mandat compatible",
    body: `Un nouveau mandat correspond à ${p.score}\u00a0% à votre mandat «\u00a0${p.ownCode}\u00a0».`,
    link: `/mandates?matching=${p.mandateId}`,
  }),
  connectionConfirmed: (p: { ownCode: string; otherCode: string; mandateId: string; fileId: string | null }): NotificationText => ({
    title: "Mise en relation confirmée",
    body: `Votre mandat «\u00a0${p.ownCode}\u00a0» et le mandat «\u00a0${p.otherCode}\u00a0» sont désormais en relation.`,
    link: p.fileId ? `/dashboard/dossiers/${p.fileId}` : `/mandates?matching=${p.mandateId}`,
  }),
  message: (p: { senderName: string; subject: string; messageId: string }): NotificationText => ({
    title: `Nouveau message de ${p.senderName}`,
    body: `Objet\u00a0: ${p.subject}`,
    link: `/dashboard/messages/${p.messageId}`,
  }),
  profileDecision: (p: { validated: boolean }): NotificationText =>
    p.validated
      ? { title: "Votre profil est validé", body: "Bienvenue dans le réseau\u00a0: votre espace membre est ouvert.", link: "/dashboard" }
      : { title: "Votre profil n’a pas été validé", body: "Consultez l’e-mail envoyé pour connaître le motif.", link: "/onboarding" },
  dealDecision: (p: { approved: boolean; label: string }): NotificationText => ({
    title: p.approved ? "Transaction certifiée" : "Transaction non certifiée",
    body: `«\u00a0${p.label}\u00a0»`,
    link: "/dashboard/profil",
  }),
  mandateExpiring: (p: { clientCode: string; days: number; mandateId: string }): NotificationText => ({
    title: "Mandat bientôt expiré",
    body:
      p.days <= 0
        ? `Votre mandat «\u00a0${p.clientCode}\u00a0» expire aujourd’hui\u00a0: prolongez-le s’il est toujours d’actualité.`
        : `Votre mandat «\u00a0${p.clientCode}\u00a0» expire dans ${p.days} jour${p.days > 1 ? "s" : ""}\u00a0: prolongez-le s’il est toujours d’actualité.`,
    link: `/mandates?modifier=${p.mandateId}`,
  }),
};
