// The rules of the 'Aperçu' tab: what "since the last visit" means, how complete a
// profile is, and which items tell the member what to do, newest first. Pure, with tables of cases.
import { FREEMIUM_MANDATE_QUOTA, isPremium } from "~/auth/permissions";
import { placesLeftLabel, plural } from "~/lib/text";
import { type EventKind, type TaskTotal, taskGroups } from "~/features/notifications/event-rules";

// ---- the last visit ----------------------------------------------------------------------------

/** A visit ends after this much time without opening the overview (then the next one starts). */
export const VISIT_GAP_MS = 30 * 60 * 1000;
/** A first visit (or a lost cookie) counts what is new over this window. */
export const FIRST_VISIT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Nothing older than this counts as new, whatever the cookie says. */
export const LONGEST_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

export type VisitState = { profileId: string; lastSeen: number; since: number };

/** The visit cookie's value, or null when absent, malformed or another member's. */
export function parseVisit(value: string | null | undefined, profileId: string): VisitState | null {
  const m = /^([0-9a-f-]{36})\.(\d{1,15})\.(\d{1,15})$/i.exec(value ?? "");
  if (!m || m[1].toLowerCase() !== profileId.toLowerCase()) return null;
  return { profileId, lastSeen: Number(m[2]), since: Number(m[3]) };
}

export function formatVisit(state: VisitState): string {
  return `${state.profileId}.${state.lastSeen}.${state.since}`;
}

/**
 * The moving windows start on a whole minute: the views of one minute without a visit cookie
 * count the same new items, and share the count kept with the rankings.
 */
const wholeMinute = (t: number) => t - (t % 60_000);

/**
 * The visit this view belongs to. Within a visit (views less than VISIT_GAP_MS apart) "new" keeps
 * the same starting point, so that a reload does not empty the counters; a view after a longer
 * gap starts a new visit, counting from the previous one's last view.
 */
export function nextVisit(previous: VisitState | null, profileId: string, now: number): VisitState {
  const floor = wholeMinute(now - LONGEST_WINDOW_MS);
  if (!previous || previous.lastSeen > now || previous.since > previous.lastSeen) {
    return { profileId, lastSeen: now, since: wholeMinute(now - FIRST_VISIT_WINDOW_MS) };
  }
  const since = now - previous.lastSeen > VISIT_GAP_MS ? previous.lastSeen : previous.since;
  return { profileId, lastSeen: now, since: Math.max(floor, since) };
}

// ---- profile completeness ----------------------------------------------------------------------

export type ProfileFields = {
  membershipType: string | null;
  locationDepartment: string | null;
  locationCity: string | null;
  fullAddress: string | null;
  specializationSectors: readonly string[] | null;
  detailedPresentation: string | null;
  internalPresentation: string | null;
  photoUrl: string | null;
  logoUrl: string | null;
};

const filled = (v: string | readonly string[] | null) => (Array.isArray(v) ? v.length > 0 : typeof v === "string" && v.trim() !== "");

/** What the 'Profil' tab lets a member fill; the premium-only fields count for premium members only. */
export function profileCompleteness(p: ProfileFields): { percent: number; missing: string[] } {
  const items: Array<[string, string | readonly string[] | null]> = [
    ["Département", p.locationDepartment],
    ["Ville", p.locationCity],
    ["Adresse complète", p.fullAddress],
    ["Secteurs d’activité", p.specializationSectors],
  ];
  if (isPremium(p.membershipType)) {
    items.push(
      ["Présentation détaillée", p.detailedPresentation],
      ["Présentation interne", p.internalPresentation],
      ["Photo de profil", p.photoUrl],
      ["Logo", p.logoUrl],
    );
  }
  const missing = items.filter(([, v]) => !filled(v)).map(([label]) => label);
  return { percent: Math.round(((items.length - missing.length) / items.length) * 100), missing };
}

// ---- the items ---------------------------------------------------------------------------------

/** The figures the overview's single statement returns (overview.server.ts): news, not to-dos. */
export type OverviewFigures = {
  newMatches: number;
  newMatchesAt: string | null;
  expiringSoon: number;
  unread: number;
  unreadAt: string | null;
  activeMandates: number;
};

/** At most this many new matches are counted ("99+" is enough to say: go and look). */
export const NEW_MATCHES_CAP = 99;

export type OverviewItem = {
  /** "matches", "unread", "expiring", or the kind of the member's open to-dos. */
  key: "matches" | "expiring" | "unread" | EventKind;
  count: number;
  /** The count as shown ("99+" past the cap). */
  shown: string;
  label: string;
  to: string;
  at: string | null;
};

/**
 * The things waiting for the member, newest first (those without a date — mandates about to
 * expire — after the dated ones); nothing for a zero count. The to-dos are the member's open
 * ones, read with the bell (the same rows the notification centre shows), so the two agree.
 */
export function overviewItems(f: OverviewFigures, tasks: readonly TaskTotal[] = []): OverviewItem[] {
  const items: OverviewItem[] = [
    {
      key: "matches",
      count: f.newMatches,
      shown: f.newMatches > NEW_MATCHES_CAP ? `${NEW_MATCHES_CAP}+` : String(f.newMatches),
      label: `${plural(f.newMatches, "nouveau mandat compatible", "nouveaux mandats compatibles")} à 60\u00a0% ou plus depuis votre dernière visite`,
      to: "/mandates?onglet=opportunites",
      at: f.newMatchesAt,
    },
    ...taskGroups(tasks).map((g): OverviewItem => ({ key: g.kind, count: g.count, shown: String(g.count), label: g.label, to: g.to, at: g.at })),
    {
      key: "unread",
      count: f.unread,
      shown: String(f.unread),
      label: `${plural(f.unread, "message non lu", "messages non lus")}`,
      to: "/dashboard/messages",
      at: f.unreadAt,
    },
    {
      key: "expiring",
      count: f.expiringSoon,
      shown: String(f.expiringSoon),
      label: `${plural(f.expiringSoon, "mandat expire", "mandats expirent")} dans les 30 jours`,
      to: "/mandates?filtre=expires",
      at: null,
    },
  ];
  const time = (at: string | null) => (at ? Date.parse(at) : Number.NEGATIVE_INFINITY);
  return items
    .map((item, order) => ({ item, order }))
    .filter(({ item }) => item.count > 0)
    .sort((a, b) => time(b.item.at) - time(a.item.at) || a.order - b.order)
    .map(({ item }) => item);
}

/** When nothing waits: what to do next, from where the member stands. */
export function nextSteps(input: { activeMandates: number; profilePercent: number; premium: boolean }): Array<{ label: string; to: string }> {
  const steps: Array<{ label: string; to: string }> = [];
  if (input.activeMandates === 0) steps.push({ label: "Déposez votre premier mandat", to: "/mandates?nouveau=1" });
  else steps.push({ label: "Consultez les opportunités de vos mandats", to: "/mandates?onglet=opportunites" });
  if (input.profilePercent < 100) steps.push({ label: "Complétez votre profil", to: "/dashboard/profil" });
  steps.push({ label: "Trouvez un confrère dans l’annuaire", to: "/dashboard/annuaire" });
  if (!input.premium) steps.push({ label: `Passez Premium\u00a0: au-delà de ${FREEMIUM_MANDATE_QUOTA} mandats par semestre`, to: "/premium" });
  return steps;
}

/** "Plus que 12 places de membre fondateur". */
export function foundingPlacesLabel(places: number): string {
  return placesLeftLabel(places, ["place de membre fondateur", "places de membre fondateur"]);
}

