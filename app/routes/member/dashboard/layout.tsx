import { BarChart3, FileText, FolderKanban, Home, Mail, Settings, Star, User, Users } from "lucide-react";
import { Form, Link, Outlet } from "react-router";
import { requireMember } from "~/auth/session.server";
import { TabNav } from "~/components/tab-nav";
import { PageContainer } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { getEnv } from "~/lib/env.server";
import { pageMeta } from "~/lib/meta";
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

// The six tabs of spec §2 "Member dashboard", each with its own URL, plus the collaboration files.
const TABS = [
  { to: "/dashboard", label: "Aperçu", icon: Home, end: true },
  { to: "/dashboard/messages", label: "Messages", icon: Mail, end: false },
  { to: "/dashboard/annuaire", label: "Annuaire", icon: Users, end: false },
  { to: "/dashboard/profil", label: "Profil", icon: User, end: false },
  { to: "/dashboard/mandats", label: "Mandats", icon: FileText, end: false },
  { to: "/dashboard/dossiers", label: "Dossiers", icon: FolderKanban, end: false },
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
      <TabNav label="Sections de l'espace membre" tabs={TABS} />
      <div className="mt-6">
        <Outlet />
      </div>
    </PageContainer>
  );
}
