import { Menu } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Wordmark } from "~/components/wordmark";
import { cn } from "~/lib/utils";

/**
 * `standing`: a validated member has a dashboard; an applicant (or a suspended or rejected
 * member) follows their membership on /onboarding, which says where they stand; an administrator
 * without a member profile has neither.
 */
export type HeaderUser = { email: string; isAdmin: boolean; standing: "member" | "applicant" | "none" } | null;

const NAV = [
  { to: "/annuaire", label: "Annuaire" },
  { to: "/concept", label: "Concept" },
  { to: "/tiers-confiance", label: "Tiers de confiance" },
];

function NavLinks({ className }: { className?: string }) {
  return (
    <>
      {NAV.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          className={({ isActive }) =>
            cn("rounded-md px-3 py-2 text-sm font-medium hover:bg-muted", isActive && "text-primary underline", className)
          }
        >
          {item.label}
        </NavLink>
      ))}
    </>
  );
}

function AccountActions({ user, stacked }: { user: HeaderUser; stacked?: boolean }) {
  const wrap = stacked ? "flex flex-col gap-2" : "flex items-center gap-2";
  if (!user) {
    return (
      <div className={wrap}>
        <Button asChild variant="ghost">
          <Link to="/auth">Connexion</Link>
        </Button>
        <Button asChild variant="accent">
          <Link to="/join-founder">Devenir membre</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className={wrap}>
      {user.standing === "member" ? (
        <Button asChild variant="ghost">
          <Link to="/dashboard">Tableau de bord</Link>
        </Button>
      ) : user.standing === "applicant" ? (
        <Button asChild variant="ghost">
          <Link to="/onboarding">Mon adhésion</Link>
        </Button>
      ) : null}
      {user.isAdmin ? (
        <Button asChild variant="outline">
          <Link to="/admin">Admin</Link>
        </Button>
      ) : null}
      <Form method="post" action="/logout">
        <Button type="submit" variant="secondary" className={stacked ? "w-full" : undefined}>
          Déconnexion
        </Button>
      </Form>
    </div>
  );
}

export function SiteHeader({ appName, user }: { appName: string; user: HeaderUser }) {
  // The mobile <details> menu closes once a link or the sign-out has taken the visitor elsewhere.
  const menu = useRef<HTMLDetailsElement>(null);
  // Not on the first render: a visitor may open the menu before the page is hydrated.
  const location = useLocation();
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (menu.current) menu.current.open = false;
  }, [location.key]);
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="min-w-0">
          <Wordmark name={appName} />
        </Link>
        <nav aria-label="Navigation principale" className="hidden items-center gap-1 md:flex">
          <NavLinks />
        </nav>
        <div className="hidden md:block">
          <AccountActions user={user} />
        </div>
        {/* A <details> menu works before JavaScript loads and with the keyboard. */}
        <details ref={menu} className="group relative md:hidden">
          <summary className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-md border [&::-webkit-details-marker]:hidden">
            <Menu className="h-5 w-5" aria-hidden="true" />
            <span className="sr-only">Ouvrir le menu</span>
          </summary>
          <div className="absolute right-0 top-12 w-64 rounded-lg border bg-background p-3 shadow-lg">
            <nav aria-label="Navigation mobile" className="flex flex-col">
              <NavLinks className="block" />
            </nav>
            <hr className="my-3" />
            <AccountActions user={user} stacked />
          </div>
        </details>
      </div>
    </header>
  );
}
