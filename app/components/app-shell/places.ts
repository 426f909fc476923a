// The places of the member space: which ones the navigation offers, and which one a
// URL belongs to. Pure, so that the side navigation, the phone's bottom bar and the tests agree.
import {
  BarChart3,
  ClipboardList,
  FileCheck2,
  FileText,
  FolderKanban,
  Home,
  Mail,
  Scale,
  ScrollText,
  Shield,
  Star,
  User,
  Users,
  type LucideIcon,
} from "lucide-react";

export type PlaceKey = "apercu" | "messages" | "annuaire" | "mandats" | "dossiers" | "stats" | "profil" | "admin";

export type Place = {
  key: PlaceKey;
  to: string;
  label: string;
  icon: LucideIcon;
  /** On a phone, the bottom bar shows the main places; the others sit behind 'Plus'. */
  phone: "bar" | "more";
};

// The spec's tab names (§2 "Member dashboard"), in the order a member uses them.
export const MEMBER_PLACES: readonly Place[] = [
  { key: "apercu", to: "/dashboard", label: "Aperçu", icon: Home, phone: "bar" },
  { key: "messages", to: "/dashboard/messages", label: "Messages", icon: Mail, phone: "bar" },
  { key: "annuaire", to: "/dashboard/annuaire", label: "Annuaire", icon: Users, phone: "more" },
  { key: "mandats", to: "/mandates", label: "Mandats", icon: FileText, phone: "bar" },
  { key: "dossiers", to: "/dashboard/dossiers", label: "Dossiers", icon: FolderKanban, phone: "bar" },
  { key: "stats", to: "/dashboard/stats", label: "Statistiques", icon: BarChart3, phone: "more" },
  { key: "profil", to: "/dashboard/profil", label: "Profil", icon: User, phone: "more" },
];

export const ADMIN_PLACE: Place = { key: "admin", to: "/admin", label: "Administration", icon: Shield, phone: "more" };

/** The places a signed-in user is offered: a member's, plus the back office for an admin. */
export function placesFor(user: { member: boolean; admin: boolean }): Place[] {
  return [...(user.member ? MEMBER_PLACES : []), ...(user.admin ? [ADMIN_PLACE] : [])];
}

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The place a URL belongs to, or null (settings, premium: reached from the account menu).
 * /mandates and /dashboard/mandats are one place.
 */
export function activePlace(pathname: string): PlaceKey | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === "/dashboard") return "apercu";
  if (under(path, "/mandates") || under(path, "/dashboard/mandats")) return "mandats";
  if (under(path, "/admin")) return "admin";
  for (const key of ["messages", "annuaire", "dossiers", "stats", "profil"] as const) {
    if (under(path, `/dashboard/${key}`)) return key;
  }
  return null;
}

/** The back office's sections, in its own frame (not places of the member space). */
export type AdminSection = { key: string; to: string; label: string; icon: LucideIcon };

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { key: "profils", to: "/admin", label: "Profils", icon: Users },
  { key: "references", to: "/admin/deals", label: "Références", icon: FileCheck2 },
  { key: "recommandations", to: "/admin/recommandations", label: "Recommandations", icon: ClipboardList },
  { key: "mediations", to: "/admin/mediations", label: "Médiations", icon: Scale },
  { key: "evaluations", to: "/admin/evaluations", label: "Évaluations", icon: Star },
  { key: "journal", to: "/admin/journal", label: "Journal", icon: ScrollText },
];

/** The back office's section a URL belongs to (/admin itself is the profiles' list). */
export function activeAdminSection(pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === "/admin") return "profils";
  for (const section of ADMIN_SECTIONS.slice(1)) if (under(path, section.to)) return section.key;
  return null;
}

/**
 * Which frame a signed-in user gets on a URL: the back office's own under /admin (and everywhere
 * for an admin without a member profile), the member space's for a member, and a bare one (top
 * bar and footer, no navigation) for an applicant, who has a single place.
 */
export type FrameKind = "member" | "admin" | "applicant";

export function frameFor(user: { member: boolean; admin: boolean }, pathname: string): FrameKind {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (user.admin && (!user.member || under(path, "/admin"))) return "admin";
  return user.member ? "member" : "applicant";
}
