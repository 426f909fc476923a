// The frame of every page a signed-in member uses: one top bar (the product name,
// the notification bell's place, one account menu with the only sign-out), a side navigation on a
// desktop, a bottom bar on a phone where the current place is always shown. Public pages keep the
// public header (root.tsx decides which frame a page gets).
import { ArrowLeft, ChevronDown, ClipboardCheck, Globe, LogOut, MoreHorizontal, Settings, Sparkles, Star, type LucideIcon } from "lucide-react";
import { Form, Link, useLocation } from "react-router";
import { Avatar } from "~/components/avatar";
import { Badge } from "~/components/ui/badge";
import { useDisclosure } from "~/components/ui/menu";
import { Wordmark } from "~/components/wordmark";
import { cn } from "~/lib/utils";
import { activeAdminSection, activePlace, ADMIN_SECTIONS, frameFor, placesFor, type FrameKind, type Place, type PlaceKey } from "./places";
import type { ShellUser } from "./shell-data";

export type { ShellData, ShellUser } from "./shell-data";
export { SHELL_ROUTE_ID } from "./shell-data";

const NAV_LABEL = "Sections de l’espace membre";
const ADMIN_NAV_LABEL = "Sections de l’administration";

/**
 * The back office's navigation: one list, a column beside the page on a desktop and a strip that
 * scrolls sideways under the top bar on a phone (no bottom bar: its sections are not places of the
 * member space).
 */
function AdminNav({ member }: { member: boolean }) {
  const { pathname } = useLocation();
  const active = activeAdminSection(pathname);
  return (
    <aside className="shrink-0 border-b md:w-56 md:border-b-0 md:border-r">
      <div className="flex flex-col gap-4 md:sticky md:top-14 md:px-3 md:py-6">
        <nav aria-label={ADMIN_NAV_LABEL} className="overflow-x-auto">
          <ul className="flex min-w-max gap-1 px-2 py-2 md:min-w-0 md:flex-col md:p-0">
            {ADMIN_SECTIONS.map((section) => (
              <li key={section.key}>
                <Link
                  to={section.to}
                  prefetch="intent"
                  aria-current={active === section.key ? "page" : undefined}
                  className={cn(
                    "flex items-center gap-2 rounded-md px-3 py-2 text-body font-medium md:gap-3",
                    active === section.key ? "bg-primary/10 text-primary" : "text-muted-foreground hover:bg-muted hover:text-foreground",
                  )}
                >
                  <section.icon className="h-4 w-4" aria-hidden="true" />
                  <span>{section.label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {member ? (
          <Link to="/dashboard" className="hidden items-center gap-2 px-3 text-body text-muted-foreground hover:text-foreground md:flex">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Retour à l’espace membre
          </Link>
        ) : null}
      </div>
    </aside>
  );
}

/** A place's unread count: nothing at 0, "99+" past 99, read out with the place's name. */
function PlaceCount({ count, compact }: { count: number | undefined; compact?: boolean }) {
  if (!count || count <= 0) return null;
  return (
    <span
      data-testid="place-count"
      className={cn(
        "rounded-full bg-primary px-1.5 text-[0.6875rem] font-semibold leading-4 text-primary-foreground",
        compact ? "absolute right-1/2 top-1 translate-x-4" : "ml-auto",
      )}
    >
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="sr-only">{`, ${count} non ${count > 1 ? "lus" : "lu"}`}</span>
    </span>
  );
}

function PlaceLink({ place, current, className, compact, count }: { place: Place; current: boolean; className?: string; compact?: boolean; count?: number }) {
  return (
    <Link
      to={place.to}
      prefetch="intent"
      aria-current={current ? "page" : undefined}
      className={cn(
        compact
          ? "relative flex h-full flex-col items-center justify-center gap-0.5 px-1 text-[0.6875rem] font-medium leading-tight"
          : "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
        current ? "bg-primary/10 text-primary" : "text-muted-foreground hover:bg-muted hover:text-foreground",
        className,
      )}
    >
      <place.icon className={compact ? "h-5 w-5" : "h-4 w-4"} aria-hidden="true" />
      <span>{place.label}</span>
      <PlaceCount count={count} compact={compact} />
    </Link>
  );
}

/** The unread count of each place that has one (Messages, Dossiers, Mandats). */
export type PlaceCounts = Partial<Record<PlaceKey, number>>;

function SideNav({ places, active, user, counts }: { places: Place[]; active: string | null; user: ShellUser; counts: PlaceCounts }) {
  return (
    <aside className="hidden w-56 shrink-0 border-r md:block">
      <div className="sticky top-14 flex flex-col gap-6 px-3 py-6">
        <nav aria-label={NAV_LABEL}>
          <ul className="flex flex-col gap-1">
            {places.map((place) => (
              <li key={place.key}>
                <PlaceLink place={place} current={active === place.key} count={counts[place.key]} />
              </li>
            ))}
          </ul>
        </nav>
        {user.member && user.membership === "freemium" ? (
          <Link
            to="/premium"
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 hover:border-amber-500"
          >
            <span className="flex items-center gap-2 font-semibold">
              <Sparkles className="h-4 w-4" aria-hidden="true" />
              Passez Premium
            </span>
            <span className="mt-1 block text-xs">Messagerie interne, mandats illimités, profil mis en avant.</span>
          </Link>
        ) : null}
      </div>
    </aside>
  );
}

/** The phone's bottom bar: the main places, then 'Plus' (or the current place when it is one of the others). */
function BottomNav({ places, active, counts }: { places: Place[]; active: string | null; counts: PlaceCounts }) {
  const more = useDisclosure();
  const bar = places.filter((p) => p.phone === "bar");
  const others = places.filter((p) => p.phone === "more");
  const activeOther = others.find((p) => p.key === active);
  const MoreIcon: LucideIcon = activeOther?.icon ?? MoreHorizontal;
  if (places.length === 0) return null;
  return (
    <nav aria-label={NAV_LABEL} className="fixed inset-x-0 bottom-0 z-40 border-t bg-background md:hidden">
      <ul className="grid h-16" style={{ gridTemplateColumns: `repeat(${bar.length + (others.length > 0 ? 1 : 0)}, minmax(0, 1fr))` }}>
        {bar.map((place) => (
          <li key={place.key}>
            <PlaceLink place={place} current={active === place.key} compact count={counts[place.key]} />
          </li>
        ))}
        {others.length > 0 ? (
          <li>
            <details ref={more} className="relative h-full">
              <summary
                className={cn(
                  "flex h-full cursor-pointer list-none flex-col items-center justify-center gap-0.5 px-1 text-[0.6875rem] font-medium leading-tight [&::-webkit-details-marker]:hidden",
                  activeOther ? "bg-primary/10 text-primary" : "text-muted-foreground",
                )}
              >
                <MoreIcon className="h-5 w-5" aria-hidden="true" />
                <span>{activeOther ? activeOther.label : "Plus"}</span>
                <span className="sr-only">{activeOther ? " (page actuelle)\u00a0: autres sections" : " de sections"}</span>
              </summary>
              <ul className="absolute bottom-full right-1 mb-2 flex w-52 flex-col gap-1 rounded-lg border bg-background p-2 shadow-lg">
                {others.map((place) => (
                  <li key={place.key}>
                    <PlaceLink place={place} current={active === place.key} />
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

function membershipLabel(membership: ShellUser["membership"]): string | null {
  if (membership === "founding_member") return "Membre fondateur";
  if (membership === "premium") return "Premium";
  if (membership === "freemium") return "Freemium";
  return null;
}

/** The one account menu: settings, the offer, the public site and the only sign-out. */
function AccountMenu({ user }: { user: ShellUser }) {
  const menu = useDisclosure();
  const label = membershipLabel(user.membership);
  const name = user.member ? `${user.firstName} ${user.lastName}`.trim() : user.email;
  const item = "flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-muted";
  return (
    <details ref={menu} className="relative">
      <summary className="flex min-h-10 cursor-pointer list-none items-center gap-2 rounded-md px-1 hover:bg-muted [&::-webkit-details-marker]:hidden">
        <Avatar size="sm" firstName={user.firstName || user.email} lastName={user.lastName} photoUrl={null} colourKey={user.profileId ?? user.email} />
        <span className="hidden max-w-40 truncate text-sm font-medium lg:inline">{name}</span>
        <ChevronDown className="hidden h-4 w-4 text-muted-foreground sm:block" aria-hidden="true" />
        <span className="sr-only">Menu du compte</span>
      </summary>
      <div className="absolute right-0 top-12 z-50 w-64 rounded-lg border bg-background p-2 shadow-lg">
        <div className="border-b px-3 pb-2 pt-1">
          <p className="truncate text-sm font-semibold">{name}</p>
          {user.member ? <p className="truncate text-xs text-muted-foreground">{user.email}</p> : null}
          {label ? (
            <Badge variant={user.membership === "freemium" ? "secondary" : "accent"} className="mt-2">
              {label}
            </Badge>
          ) : null}
        </div>
        <ul className="flex flex-col gap-1 pt-2">
          <li>
            <Link to="/parametres" className={item}>
              <Settings className="h-4 w-4" aria-hidden="true" />
              Paramètres
            </Link>
          </li>
          {!user.member && !user.admin ? (
            <li>
              <Link to="/onboarding" className={item}>
                <ClipboardCheck className="h-4 w-4" aria-hidden="true" />
                Mon adhésion
              </Link>
            </li>
          ) : null}
          {user.member ? (
            <li>
              <Link to="/premium" className={item}>
                <Sparkles className="h-4 w-4" aria-hidden="true" />
                {user.membership === "freemium" ? "Passer Premium" : "Mon offre"}
              </Link>
            </li>
          ) : null}
          <li>
            <Link to="/" className={item}>
              <Globe className="h-4 w-4" aria-hidden="true" />
              Site public
            </Link>
          </li>
          <li className="border-t pt-1">
            <Form method="post" action="/logout">
              <button type="submit" className={cn(item, "w-full text-left text-destructive")}>
                <LogOut className="h-4 w-4" aria-hidden="true" />
                Déconnexion
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </details>
  );
}

export function AppShell({
  appName,
  user,
  bell,
  counts = {},
  footer,
  children,
}: {
  appName: string;
  user: ShellUser;
  /** The notification bell sits here, left of the account menu. */
  bell?: React.ReactNode;
  /** Unread counts on the places, live from the notification state. */
  counts?: PlaceCounts;
  footer?: React.ReactNode;
  children: React.ReactNode;
}) {
  const { pathname } = useLocation();
  const frame: FrameKind = frameFor(user, pathname);
  const places = frame === "member" ? placesFor(user) : [];
  const active = activePlace(pathname);
  const home = frame === "member" ? "/dashboard" : frame === "admin" ? "/admin" : "/onboarding";
  const where = frame === "member" ? "Espace membre" : frame === "admin" ? "Administration" : "Mon adhésion";
  return (
    <div className="flex min-h-screen flex-col bg-canvas" data-shell={frame}>
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
        <div className="flex h-14 items-center gap-3 px-4">
          <Link to={home} className="flex min-w-0 items-center">
            <Wordmark name={appName} />
          </Link>
          <span className="hidden border-l pl-3 text-body text-muted-foreground lg:inline">{where}</span>
          {user.membership === "founding_member" ? (
            <Badge variant="accent" className="hidden gap-1 sm:inline-flex">
              <Star className="h-3 w-3" aria-hidden="true" />
              Membre fondateur
            </Badge>
          ) : null}
          <div className="ml-auto flex items-center gap-1" data-slot="top-bar-actions">
            {bell}
            <AccountMenu user={user} />
          </div>
        </div>
      </header>
      <div className={cn("flex w-full flex-1", frame === "admin" ? "flex-col md:flex-row" : "")}>
        {frame === "member" ? <SideNav places={places} active={active} user={user} counts={counts} /> : null}
        {frame === "admin" ? <AdminNav member={user.member} /> : null}
        <div className={cn("flex min-w-0 flex-1 flex-col", frame === "member" ? "pb-16 md:pb-0" : "")}>
          <main id="contenu" className="flex-1 bg-background">
            {children}
          </main>
          {footer}
        </div>
      </div>
      {frame === "member" ? <BottomNav places={places} active={active} counts={counts} /> : null}
    </div>
  );
}
