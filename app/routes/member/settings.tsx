// /parametres: the account settings, one page per subject (Profil du compte, Sécurité,
// Notifications, Assurance, Facturation, Mes données) under one heading and one navigation.
import { Email } from "~/components/email";
import { Bell, Database, FileCheck2, Receipt, ShieldCheck, UserRound, type LucideIcon } from "lucide-react";
import { isRouteErrorResponse, Link, Outlet, redirect } from "react-router";
import { getRequestIsAdmin, getRequestProfile, requireUser } from "~/auth/session.server";
import { AppPage, PageHeader } from "~/components/page";
import { TabNav } from "~/components/tab-nav";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { atEdge } from "~/lib/errors/http";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/settings";
import { settingsAction } from "./settings/action.server";
import { legacySectionTarget, visibleSettingsPages } from "./settings/pages";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Paramètres du compte"),
  { name: "robots", content: "noindex" },
];

const ICONS: Record<string, LucideIcon> = {
  "/parametres": UserRound,
  "/parametres/securite": ShieldCheck,
  "/parametres/notifications": Bell,
  "/parametres/assurance": FileCheck2,
  "/parametres/facturation": Receipt,
  "/parametres/donnees": Database,
};

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const legacy = legacySectionTarget(new URL(request.url));
  if (legacy) throw redirect(legacy);
  const user = await requireUser(request, { guests: true });
  const [admin, profile] = await Promise.all([getRequestIsAdmin(user.id), getRequestProfile(user.id)]);
  const back =
    profile?.profileStatus === "validated"
      ? { to: "/dashboard", label: "Retour à l’espace membre" }
      : admin
        ? { to: "/admin", label: "Retour à l’administration" }
        : { to: "/onboarding", label: "Retour à mon adhésion" };
  return {
    email: user.email,
    back,
    adminRequiresTwoFactor: admin && !user.twoFactorEnabled,
    pages: visibleSettingsPages({ hasProfile: Boolean(profile), isMember: profile?.profileStatus === "validated" }).map(({ path, label }) => ({
      path,
      label,
    })),
  };
});

// A form sent to /parametres itself (no page named) is handled as on its page.
export const action = settingsAction;

export default function Settings({ loaderData }: Route.ComponentProps) {
  const tabs = loaderData.pages.map((page) => ({ to: page.path, label: page.label, icon: ICONS[page.path] ?? UserRound, end: true }));
  return (
    <AppPage className="max-w-5xl">
      <PageHeader
        title="Paramètres du compte"
        description={
          <>
            Compte&nbsp;: <Email address={loaderData.email} />
          </>
        }
        back={loaderData.back}
      />
      <div className="flex flex-col gap-stack lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:items-start lg:gap-8">
        <TabNav label="Pages des paramètres" tabs={tabs} side className="lg:sticky lg:top-20" />
        <div className="flex min-w-0 flex-col gap-stack">
          <SettingsAlerts adminRequiresTwoFactor={loaderData.adminRequiresTwoFactor} />
          <Outlet />
        </div>
      </div>
    </AppPage>
  );
}

function SettingsAlerts({ adminRequiresTwoFactor }: { adminRequiresTwoFactor: boolean }) {
  return (
    <>
      {adminRequiresTwoFactor ? (
        <Alert variant="destructive">
          <AlertTitle>Double authentification obligatoire</AlertTitle>
          <AlertDescription>
            Les administrateurs doivent activer la double authentification pour accéder à l’administration.{" "}
            <Link to="/parametres/securite#securite" className="font-medium underline">
              Activer la double authentification
            </Link>
          </AlertDescription>
        </Alert>
      ) : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const body = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | undefined) : undefined;
  const message =
    isRouteErrorResponse(error) && error.status < 500 && typeof body?.message === "string"
      ? body.message
      : "Nous n’avons pas pu effectuer cette opération. Veuillez réessayer.";
  return (
    <AppPage wide={false}>
      <PageHeader title="Paramètres du compte" />
      <Alert variant="destructive">
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="w-fit">
        <Link to="/parametres">Revenir aux paramètres</Link>
      </Button>
    </AppPage>
  );
}
