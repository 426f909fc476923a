import { BarChart3, FileText, Home, Mail, Settings, Star, User, Users } from "lucide-react";
import { Form, Link, NavLink, Outlet } from "react-router";
import { requireMember } from "~/auth/session.server";
import { PageContainer } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { getEnv } from "~/lib/env.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/layout";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Espace membre"), { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return {
    appName: getEnv().APP_NAME,
    member: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      membershipType: profile.membershipType,
    },
  };
}

// The six tabs of spec §2 "Member dashboard", each with its own URL.
const TABS = [
  { to: "/dashboard", label: "Aperçu", icon: Home, end: true },
  { to: "/dashboard/messages", label: "Messages", icon: Mail, end: false },
  { to: "/dashboard/annuaire", label: "Annuaire", icon: Users, end: false },
  { to: "/dashboard/profil", label: "Profil", icon: User, end: false },
  { to: "/dashboard/mandats", label: "Mandats", icon: FileText, end: false },
  { to: "/dashboard/stats", label: "Stats", icon: BarChart3, end: false },
];

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { appName, member } = loaderData;
  return (
    <PageContainer className="py-6">
      <header className="flex flex-wrap items-center justify-between gap-4 border-b pb-4">
        <div>
          <p className="text-sm font-semibold text-primary">{appName}</p>
          <h1 className="text-2xl font-bold">Espace membre</h1>
          <p className="text-sm text-muted-foreground">
            {member.firstName} {member.lastName}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {member.membershipType === "founding_member" ? (
            <Badge variant="accent" className="gap-1">
              <Star className="h-3 w-3" aria-hidden="true" />
              Membre fondateur
            </Badge>
          ) : null}
          <Button asChild variant="outline" size="sm">
            <Link to="/parametres">
              <Settings aria-hidden="true" />
              Paramètres
            </Link>
          </Button>
          <Form method="post" action="/logout">
            <Button type="submit" variant="secondary" size="sm">
              Se déconnecter
            </Button>
          </Form>
        </div>
      </header>
      <nav aria-label="Sections de l'espace membre" className="mt-4 overflow-x-auto">
        <ul className="flex min-w-max gap-1 rounded-lg bg-muted p-1">
          {TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
                prefetch="intent"
                className={({ isActive }) =>
                  cn(
                    "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground",
                    isActive && "bg-background text-foreground shadow-sm",
                  )
                }
              >
                <tab.icon className="h-4 w-4" aria-hidden="true" />
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </PageContainer>
  );
}
