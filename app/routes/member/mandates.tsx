import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Plus } from "lucide-react";
import { data, isRouteErrorResponse, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { requireMember } from "~/auth/session.server";
import { PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { resumeMandateSearch } from "~/features/collaboration/closings.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { NEGOTIATION_MESSAGES } from "~/features/collaboration/negotiation-rules";
import { MatchingPanelContent } from "~/features/connections/components/matching-panel";
import { OpportunitiesSection } from "~/features/connections/components/opportunities";
import { RequestForm } from "~/features/connections/components/request-form";
import { MATCH_REQUEST_MESSAGES } from "~/features/connections/connection-rules";
import { matchRequestSchema, respondSchema, undertakingSchema, UNDERTAKING_REQUIRED } from "~/features/connections/connections.schema";
import {
  createMatchRequest,
  getMatchingPanel,
  respondToMatchRequest,
  sentRequestStatuses,
  signUndertaking,
} from "~/features/connections/connections.server";
import { notifyMatchRequest, sendConnectionConfirmedEmails } from "~/features/connections/notifications.server";
import { MandateDetails } from "~/features/mandates/components/mandate-details";
import { MandateForm, mandateFormDefaults } from "~/features/mandates/components/mandate-form";
import { DeleteConfirmation, MandatesTabs, MyMandatesSection, type MandatesTab } from "~/features/mandates/components/mandates-sections";
import { UrlDialog } from "~/features/mandates/components/url-dialog";
import { DIALOG_PARAMS, mandatesHref, safeMandatesReturn } from "~/features/mandates/components/urls";
import {
  MANDATE_MESSAGES,
  MANDATE_TYPE_LABELS,
  parisToday,
} from "~/features/mandates/mandate-rules";
import { mandateFormSchema } from "~/features/mandates/mandates.schema";
import {
  createMandate,
  deleteMandate,
  getMandateQuota,
  isUuid,
  listMyMandates,
  mandateActor,
  notFound,
  QuotaReachedError,
  toggleMandateStatus,
  updateMandate,
  type MandateActor,
  type OwnMandate,
} from "~/features/mandates/mandates.server";
import { alertMatchingOwners } from "~/features/matching/alerts.server";
import { getCounterparts } from "~/features/matching/counterpart.server";
import { matchScore } from "~/features/matching/match-score";
import { listOpportunities, type Opportunity } from "~/features/matching/matching.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/mandates";
import { readForm } from "~/lib/form.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Gestion des Mandats"),
  { name: "robots", content: "noindex" },
];


/** A feature's expected failure (`throw data({ message }, { status })`), or null. */
function httpError(error: unknown): { status: number; message: string } | null {
  if (error && typeof error === "object" && "data" in error && "init" in error) {
    const body = (error as { data?: { message?: unknown } }).data;
    const init = (error as { init?: { status?: number } | null }).init;
    return { status: init?.status ?? 500, message: typeof body?.message === "string" ? body.message : "" };
  }
  return null;
}

function scoreFor(own: OwnMandate, other: Parameters<typeof matchScore>[0] & Parameters<typeof matchScore>[1]) {
  return own.mandateType === "buyer" ? matchScore(own, other) : matchScore(other, own);
}

async function loadRequestTarget(actor: MandateActor, own: OwnMandate | undefined, targetId: string | null) {
  if (!own || !isUuid(targetId)) return null;
  const target = (await getCounterparts([targetId])).get(targetId);
  if (!target || target.owner.profileId === actor.profileId || target.mandateType === own.mandateType) return null;
  return { target, score: scoreFor(own, target) };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const actor = mandateActor(profile);
  const sp = new URL(request.url).searchParams;
  const tab: MandatesTab = sp.get("onglet") === "opportunites" ? "opportunites" : "mandats";
  const today = parisToday();

  let mandates: OwnMandate[] = [];
  let loadError: string | null = null;
  try {
    mandates = await listMyMandates(actor);
  } catch (error) {
    logger.error({ err: error }, "mandates list failed");
    loadError = MANDATE_MESSAGES.loadFailed;
  }
  // Another member's id (or an unknown one) in a dialog parameter is a 404, as for any route.
  for (const key of ["modifier", "details", "supprimer"] as const) {
    const id = sp.get(key);
    if (id && !loadError && !mandates.some((m) => m.id === id)) notFound();
  }

  const quota = await getMandateQuota(actor).catch(() => null);

  const matchingId = sp.get("matching");
  const panel = matchingId ? await getMatchingPanel(actor, matchingId) : null;

  let opportunities: Opportunity[] | null = null;
  let sentStatuses: Record<string, string> = {};
  if (tab === "opportunites" && !loadError) {
    try {
      opportunities = await listOpportunities(actor, mandates);
      sentStatuses = Object.fromEntries(await sentRequestStatuses(actor));
    } catch (error) {
      logger.error({ err: error }, "opportunities failed");
      opportunities = [];
    }
  }

  // 'Demander une mise en relation' from the panel (?matching=A&demande=X) or from an
  // opportunity (?mandat=A&demande=X): the requesting mandate must be the actor's.
  const sourceId = matchingId ?? sp.get("mandat");
  const source = sourceId ? mandates.find((m) => m.id === sourceId) : undefined;
  const requestTarget = sp.get("demande") ? await loadRequestTarget(actor, source, sp.get("demande")) : null;

  return {
    tab,
    today,
    filter: sp.get("filtre") === "expires" ? ("expires" as const) : null,
    mandates,
    loadError,
    quota: quota?.limited ? { used: quota.used, canCreate: quota.canCreate } : null,
    panel,
    opportunities,
    sentStatuses,
    requestTarget: requestTarget && source ? { ...requestTarget, own: { id: source.id, clientCode: source.clientCode } } : null,
  };
}

// Opening or closing the create/edit/detail/delete dialogs needs nothing new from the server:
// the list is already loaded.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const light = new Set(["nouveau", "details", "modifier", "supprimer"]);
  const keys = new Set([...currentUrl.searchParams.keys(), ...nextUrl.searchParams.keys()]);
  for (const key of keys) {
    if (!light.has(key) && currentUrl.searchParams.get(key) !== nextUrl.searchParams.get(key)) return defaultShouldRevalidate;
  }
  return false;
}

type FormActionData = { intent: "create" | "update"; result: SubmissionResult<string[]> };

async function alertSafely(actor: MandateActor, mandateId: string) {
  try {
    await alertMatchingOwners(actor, mandateId);
  } catch (error) {
    logger.warn({ err: error, mandateId }, "match alerts failed");
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = mandateActor(profile);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const returnTo = safeMandatesReturn(formData.get("returnTo"));
  const closeDialogs = (url: string) =>
    mandatesHref(new URL(url, "http://x").searchParams, Object.fromEntries(DIALOG_PARAMS.map((p) => [p, null])));

  switch (intent) {
    case "create":
    case "update": {
      const submission = parseWithZod(formData, { schema: mandateFormSchema });
      if (submission.status !== "success") {
        return data({ intent, result: submission.reply() } satisfies FormActionData, { status: 400 });
      }
      try {
        if (intent === "create") {
          const { id } = await createMandate(actor, submission.value);
          await alertSafely(actor, id);
          return redirectWithToast(closeDialogs(request.url), { type: "success", title: MANDATE_MESSAGES.created });
        }
        await updateMandate(actor, String(formData.get("mandateId") ?? ""), submission.value);
        return redirectWithToast(closeDialogs(request.url), { type: "success", title: MANDATE_MESSAGES.updated });
      } catch (error) {
        if (error instanceof QuotaReachedError) {
          return data(
            { intent, result: submission.reply({ formErrors: [MANDATE_MESSAGES.quotaReached] }) } satisfies FormActionData,
            { status: 403, headers: await createToastHeaders({ type: "error", title: MANDATE_MESSAGES.quotaReached }) },
          );
        }
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error, intent }, "mandate save failed");
        const message = `${MANDATE_MESSAGES.saveFailed}${http?.message || "une erreur inattendue est survenue, veuillez réessayer."}`;
        return data(
          { intent, result: submission.reply({ formErrors: [message] }) } satisfies FormActionData,
          { status: http?.status ?? 500, headers: await createToastHeaders({ type: "error", title: message }) },
        );
      }
    }

    case "toggle-status": {
      const mandateId = String(formData.get("mandateId") ?? "");
      try {
        const row = await toggleMandateStatus(actor, mandateId);
        if (row.status === "active") await alertSafely(actor, mandateId);
        return redirectWithToast(returnTo, {
          type: "success",
          title: row.status === "active" ? MANDATE_MESSAGES.reactivated : MANDATE_MESSAGES.onHold,
        });
      } catch (error) {
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error }, "mandate status toggle failed");
        return redirectWithToast(returnTo, { type: "error", title: MANDATE_MESSAGES.statusFailed, description: http?.message || undefined });
      }
    }

    // « Remettre en recherche active »: a mandate in negotiation back to the matching (decision 010).
    case "resume-search": {
      const mandateId = String(formData.get("mandateId") ?? "");
      try {
        await resumeMandateSearch(fileActor(profile), mandateId);
      } catch (error) {
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error }, "mandate search resume failed");
        return redirectWithToast(returnTo, { type: "error", title: MANDATE_MESSAGES.statusFailed, description: http?.message || undefined });
      }
      await alertSafely(actor, mandateId);
      return redirectWithToast(returnTo, { type: "success", title: NEGOTIATION_MESSAGES.resumed });
    }

    case "delete": {
      const mandateId = String(formData.get("mandateId") ?? "");
      const after = closeDialogs(returnTo);
      try {
        await deleteMandate(actor, mandateId);
        return redirectWithToast(after, { type: "success", title: MANDATE_MESSAGES.deleted });
      } catch (error) {
        if (httpError(error)?.status === 404) throw error;
        logger.error({ err: error }, "mandate delete failed");
        return redirectWithToast(after, { type: "error", title: MANDATE_MESSAGES.deleteFailed });
      }
    }

    case "request":
    case "propose": {
      const submission = parseWithZod(formData, { schema: matchRequestSchema });
      if (submission.status !== "success") {
        const first = Object.values(submission.error ?? {}).flat()[0] ?? undefined;
        return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.sendFailed, description: first ?? undefined });
      }
      const limit = await consumeRateLimit(`match-request:account:${user.id}`, RATE_LIMITS.matchRequestAccount);
      if (!limit.allowed) {
        return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.sendFailed, description: MATCH_REQUEST_MESSAGES.tooMany });
      }
      let created: { requestId: string };
      try {
        created = await createMatchRequest(actor, submission.value);
      } catch (error) {
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error }, "match request failed");
        return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.sendFailed, description: http?.message || undefined });
      }
      try {
        await notifyMatchRequest(created.requestId);
      } catch (error) {
        logger.warn({ err: error, requestId: created.requestId }, "match request notification failed");
      }
      return redirectWithToast(returnTo, { type: "success", title: MATCH_REQUEST_MESSAGES.sent });
    }

    case "accept":
    case "reject": {
      const submission = parseWithZod(formData, { schema: respondSchema });
      if (submission.status !== "success") throw data({ message: "Demande inconnue" }, { status: 400 });
      let answer;
      try {
        answer = await respondToMatchRequest(actor, submission.value.requestId, intent === "accept" ? "accepted" : "rejected");
      } catch (error) {
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error }, "match request answer failed");
        return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.updateFailed, description: http?.message || undefined });
      }
      if (answer.status === "rejected") return redirectWithToast(returnTo, { type: "success", title: MATCH_REQUEST_MESSAGES.rejected });
      if (!answer.confirmed) return redirectWithToast(returnTo, { type: "success", title: MATCH_REQUEST_MESSAGES.acceptedWaiting });
      try {
        await sendConnectionConfirmedEmails(answer.requesterMandateId, answer.targetMandateId);
      } catch (error) {
        logger.error({ err: error, requestId: answer.requestId }, "connection confirmation e-mails failed");
        return redirectWithToast(returnTo, { type: "info", title: MATCH_REQUEST_MESSAGES.acceptedMailFailed });
      }
      // The spec's toast says the details went by e-mail: true only when this member gets that
      // e-mail; otherwise the toast says where the details are.
      return redirectWithToast(returnTo, {
        type: "success",
        title: profile.notifyMatchRequests ? MATCH_REQUEST_MESSAGES.confirmed : MATCH_REQUEST_MESSAGES.confirmedWithoutMail,
      });
    }

    case "sign-undertaking": {
      const submission = parseWithZod(formData, { schema: undertakingSchema });
      if (submission.status !== "success") {
        return redirectWithToast(returnTo, { type: "error", title: UNDERTAKING_REQUIRED });
      }
      try {
        await signUndertaking(actor, submission.value.requestId);
      } catch (error) {
        const http = httpError(error);
        if (http?.status === 404) throw error;
        if (!http) logger.error({ err: error }, "undertaking failed");
        return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.updateFailed, description: http?.message || undefined });
      }
      return redirectWithToast(returnTo, { type: "success", title: MATCH_REQUEST_MESSAGES.undertakingSigned });
    }

    default:
      throw data({ message: "Action inconnue" }, { status: 400 });
  }
}


export default function MandatesPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const [search] = useSearchParams();
  const navigation = useNavigation();
  const formResult = actionData as FormActionData | undefined;
  const closeTo = mandatesHref(search);
  const byId = (id: string | null) => (id ? d.mandates.find((m) => m.id === id) : undefined);
  const creating = search.get("nouveau") === "1";
  const editing = byId(search.get("modifier"));
  const showing = byId(search.get("details"));
  const removing = byId(search.get("supprimer"));
  const panel = d.panel && search.get("matching") === d.panel.mandate.id ? d.panel : null;
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
        returnTo={requestBack}
        cancelTo={requestBack}
      />
    </UrlDialog>
  ) : null;

  return (
    <PageContainer className="py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <PageTitle>Gestion des Mandats</PageTitle>
          <p className="mt-1 text-muted-foreground">
            Vos mandats exclusifs d'acquisition et de cession, et leurs mises en relation confidentielles.
          </p>
        </div>
        <Button asChild size="lg">
          <Link to={mandatesHref(search, { nouveau: "1" })} preventScrollReset>
            <Plus aria-hidden="true" />
            Nouveau mandat
          </Link>
        </Button>
      </div>

      {creating ? (
        <UrlDialog id="mandate-create-dialog" title="Nouveau mandat" closeTo={closeTo}>
          <MandateForm
            mode="create"
            defaultValue={mandateFormDefaults(undefined, d.today)}
            lastResult={formResult?.intent === "create" ? formResult.result : undefined}
            quota={d.quota}
            cancelTo={closeTo}
          />
        </UrlDialog>
      ) : null}
      {editing ? (
        <UrlDialog id="mandate-edit-dialog" title="Modifier le mandat" description={`Mandat ${editing.clientCode}`} closeTo={closeTo}>
          <MandateForm
            key={editing.id}
            mode="edit"
            defaultValue={mandateFormDefaults(editing, d.today)}
            lastResult={formResult?.intent === "update" ? formResult.result : undefined}
            cancelTo={closeTo}
          />
        </UrlDialog>
      ) : null}
      {showing ? (
        <UrlDialog
          id="mandate-details-dialog"
          title={showing.clientCode}
          description={`Détails du mandat · ${MANDATE_TYPE_LABELS[showing.mandateType]}`}
          closeTo={closeTo}
        >
          <MandateDetails m={showing} />
          <div className="flex justify-end">
            <Button asChild variant="outline">
              <Link to={closeTo} preventScrollReset>
                Fermer
              </Link>
            </Button>
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
          />
          {requestDialog}
          <div className="flex justify-end">
            <Button asChild variant="outline">
              <Link to={closeTo} preventScrollReset>
                Fermer
              </Link>
            </Button>
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
    </PageContainer>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? "Ce mandat n'existe pas ou ne vous appartient pas."
      : status === 403 || status === 401
        ? "Vous n'avez pas les droits nécessaires pour effectuer cette action."
        : "Nous n'avons pas pu afficher vos mandats. Veuillez réessayer dans un instant.";
  return (
    <PageContainer className="py-8">
      <PageTitle>Gestion des Mandats</PageTitle>
      <Alert variant="destructive" className="mt-6">
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="mt-6">
        <Link to="/mandates">Revenir à mes mandats</Link>
      </Button>
    </PageContainer>
  );
}
