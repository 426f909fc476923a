import { Plus } from "lucide-react";
import { isRouteErrorResponse, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { AppPage, DismissLink, PageHeader } from "~/components/page";
import { ErrorState } from "~/components/states";
import { Button } from "~/components/ui/button";
import { MatchingPanelContent } from "~/features/connections/components/matching-panel";
import { OpportunitiesSection } from "~/features/connections/components/opportunities";
import { RequestForm } from "~/features/connections/components/request-form";
import { MandateDetails } from "~/features/mandates/components/mandate-details";
import { MandateFormPage } from "~/features/mandates/components/mandate-form-page";
import { DeleteConfirmation, MandatesTabs, MyMandatesSection } from "~/features/mandates/components/mandates-sections";
import { UrlDialog } from "~/features/mandates/components/url-dialog";
import { mandatesHref } from "~/features/mandates/components/urls";
import { MANDATE_TYPE_LABELS } from "~/features/mandates/mandate-rules";
import { loadMandatesPage, mandatesAction, type MandateFormActionData } from "./mandates-page.server";
import { nextMatchesPage } from "~/features/matching/match-score";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/mandates";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const sp = new URLSearchParams(location.search);
  const title = sp.get("nouveau") === "1" ? "Nouveau mandat" : sp.has("modifier") ? "Modifier le mandat" : "Gestion des Mandats";
  return [...pageMeta(matches, title), { name: "robots", content: "noindex" }];
};

export const loader = atEdge(function loader({ request }: Route.LoaderArgs) {
  return loadMandatesPage(request);
});

export const action = atEdge(function action({ request }: Route.ActionArgs) {
  return mandatesAction(request);
});

// Opening or closing the detail/delete dialogs needs nothing new from the server: the list is
// already loaded. The form page (?nouveau, ?modifier) and the list read different figures.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const light = new Set(["details", "supprimer"]);
  const keys = new Set([...currentUrl.searchParams.keys(), ...nextUrl.searchParams.keys()]);
  for (const key of keys) {
    if (!light.has(key) && currentUrl.searchParams.get(key) !== nextUrl.searchParams.get(key)) return defaultShouldRevalidate;
  }
  return false;
}

export default function MandatesPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const [search] = useSearchParams();
  const navigation = useNavigation();
  const formResult = actionData as MandateFormActionData | undefined;
  const closeTo = mandatesHref(search);
  const byId = (id: string | null) => (id ? d.mandates.find((m) => m.id === id) : undefined);
  const creating = search.get("nouveau") === "1";
  const editing = byId(search.get("modifier"));
  const showing = byId(search.get("details"));
  const removing = byId(search.get("supprimer"));
  const panel = d.panel && search.get("matching") === d.panel.mandate.id ? d.panel : null;

  if (creating || editing) {
    const expected = creating ? "create" : "update";
    return (
      <MandateFormPage
        mandate={creating ? undefined : editing}
        today={d.today}
        quota={d.quota}
        lastResult={formResult?.intent === expected ? formResult.result : undefined}
        cancelTo={closeTo}
      />
    );
  }

  // Switching tabs or filters: the list is reloading.
  const next = navigation.state === "loading" && navigation.location?.pathname === "/mandates" ? new URLSearchParams(navigation.location.search) : null;
  const switching = next !== null && (next.get("onglet") !== search.get("onglet") || next.get("filtre") !== search.get("filtre"));
  // Back to where the request was asked from: the panel, or the list / Opportunités tab.
  const requestBack = mandatesHref(search, { matching: search.get("matching") });
  const requestDialog = d.requestTarget ? (
    <UrlDialog
      id="match-request-dialog"
      title="Demander une mise en relation"
      description={`Mandat ${d.requestTarget.target.clientCode}`}
      closeTo={requestBack}
      size="md"
    >
      <RequestForm
        mandateId={d.requestTarget.own.id}
        ownCode={d.requestTarget.own.clientCode}
        target={d.requestTarget.target}
        score={d.requestTarget.score}
        criteria={d.requestTarget.criteria}
        returnTo={requestBack}
        cancelTo={requestBack}
      />
    </UrlDialog>
  ) : null;

  // An open dialog's action is the view's primary: before hydration and without JavaScript the
  // dialog is a section of this page, so « Nouveau mandat » steps back meanwhile.
  const dialogOpen = Boolean(showing || removing || panel || d.requestTarget);
  return (
    <AppPage>
      <PageHeader
        title="Gestion des Mandats"
        description="Vos mandats exclusifs d’acquisition et de cession, et leurs mises en relation confidentielles."
        primary={
          <Button asChild variant={dialogOpen ? "outline" : "default"}>
            <Link to={mandatesHref(search, { nouveau: "1" })}>
              <Plus aria-hidden="true" />
              Nouveau mandat
            </Link>
          </Button>
        }
      />

      {showing ? (
        <UrlDialog
          id="mandate-details-dialog"
          title={showing.clientCode}
          description={`Détails du mandat · ${MANDATE_TYPE_LABELS[showing.mandateType]}`}
          closeTo={closeTo}
        >
          <MandateDetails m={showing} />
          <div className="flex justify-end">
            <DismissLink to={closeTo} label="Fermer" />
          </div>
        </UrlDialog>
      ) : null}
      {removing ? (
        <UrlDialog
          id="mandate-delete-dialog"
          role="alertdialog"
          size="md"
          title="Supprimer le mandat"
          description="Êtes-vous sûr de vouloir supprimer ce mandat ? Cette action est irréversible."
          closeTo={closeTo}
        >
          <DeleteConfirmation mandateId={removing.id} closeTo={closeTo} />
        </UrlDialog>
      ) : null}
      {panel ? (
        <UrlDialog
          id="matching-dialog"
          size="xl"
          sheet
          title={`Matching pour le mandat ${panel.mandate.clientCode}`}
          description={MANDATE_TYPE_LABELS[panel.mandate.mandateType]}
          closeTo={closeTo}
        >
          <MatchingPanelContent
            panel={panel}
            returnTo={mandatesHref(search, { matching: panel.mandate.id })}
            requestHref={(targetId) => mandatesHref(search, { matching: panel.mandate.id, demande: targetId })}
            moreHref={(shown) => mandatesHref(search, { matching: panel.mandate.id, plus: String(nextMatchesPage(shown)) })}
            quiet={requestDialog !== null}
          />
          {requestDialog}
          <div className="flex justify-end">
            <DismissLink to={closeTo} label="Fermer" />
          </div>
        </UrlDialog>
      ) : (
        requestDialog
      )}

      <MandatesTabs tab={d.tab} search={search} />
      {switching ? (
        <p role="status" className="mt-6 text-muted-foreground">
          {next?.get("onglet") === "opportunites" ? "Recherche des opportunités..." : "Chargement des mandats..."}
        </p>
      ) : d.tab === "opportunites" ? (
        <OpportunitiesSection d={d} search={search} />
      ) : (
        <MyMandatesSection d={d} search={search} />
      )}
    </AppPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? "Ce mandat n’existe pas ou ne vous appartient pas."
      : status === 403 || status === 401
        ? "Vous n’avez pas les droits nécessaires pour effectuer cette action."
        : "Nous n’avons pas pu afficher vos mandats. Veuillez réessayer dans un instant.";
  return (
    <AppPage>
      <PageHeader title="Gestion des Mandats" />
      <ErrorState
        title="Erreur"
        message={message}
        action={
          <Button asChild variant="outline" size="sm">
            <Link to="/mandates">Revenir à mes mandats</Link>
          </Button>
        }
      />
    </AppPage>
  );
}
