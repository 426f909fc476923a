// The places of the member space: which ones the navigation offers, and which one a
// URL belongs to. Pure, so that the side navigation, the phone's bottom bar and the tests agree.
import { BarChart3, FileText, FolderKanban, Home, Mail, Shield, User, Users, type LucideIcon } from "lucide-react";

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
