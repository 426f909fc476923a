// The /mandates page's use cases (spec §2 "Mandates"): what its loader reads, and
// each intent its forms post — with their toasts, alerts and notifications. The route only maps
// the request to these.
import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { sql } from "drizzle-orm";
import { data } from "react-router";
import { requireMember } from "~/auth/session.server";
import { resumeMandateSearch } from "~/features/collaboration/closings.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { NEGOTIATION_MESSAGES } from "~/features/collaboration/negotiation-rules";
import { MATCH_REQUEST_MESSAGES } from "~/features/connections/connection-rules";
import { matchRequestSchema, respondSchema, undertakingSchema, UNDERTAKING_REQUIRED } from "~/features/connections/connections.schema";
import {
  createMatchRequest,
  respondToMatchRequest,
  signUndertaking,
} from "~/features/connections/connections.server";
import { getMatchingPanel } from "~/features/connections/matching-panel.server";
import { notifyMatchRequest, sendConnectionConfirmedEmails } from "~/features/connections/notifications.server";
import { alertMatchingOwners } from "~/features/matching/alerts.server";
import { getCounterparts } from "~/features/matching/counterpart.server";
import { matchesShown, matchScore } from "~/features/matching/match-score";
import { listOpportunities, verdictsBetween, type Opportunity } from "~/features/matching/matching.server";
import { readForm } from "~/lib/form.server";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import { isUuid } from "~/lib/uuid";
import type { MandatesTab } from "~/features/mandates/components/mandates-sections";
import { DIALOG_PARAMS, mandatesHref, safeMandatesReturn } from "~/features/mandates/components/urls";
import { listMandateCards, type MandateWithFigures } from "~/features/matching/mandate-cards.server";
import { MANDATE_MESSAGES, mandateQuota, opportunityQuota, parisToday, quotaWindowStart } from "~/features/mandates/mandate-rules";
import { mandateFormSchema } from "~/features/mandates/mandates.schema";
import {
  createMandate,
  deleteMandate,
  getMandateQuota,
  listMyMandatesWithCounts,
  mandateActor,
  notFound,
  QuotaReachedError,
  quotaEventsCountSql,
  toggleMandateStatus,
  updateMandate,
  type MandateActor,
  type OwnMandate,
} from "~/features/mandates/mandates.server";
import { AppError } from "~/lib/errors/app-error";
import { expectedMessage, expectedStatus } from "~/lib/errors/http";

/** A feature's expected failure, or null for an unexpected error. */
function httpError(error: unknown): { status: number; message: string } | null {
  const status = error instanceof Response ? null : expectedStatus(error);
  return status === null ? null : { status, message: expectedMessage(error, "") };
}

function scoreFor(own: OwnMandate, other: Parameters<typeof matchScore>[0] & Parameters<typeof matchScore>[1]) {
  return own.mandateType === "buyer" ? matchScore(own, other) : matchScore(other, own);
}

async function loadRequestTarget(actor: MandateActor, own: OwnMandate | undefined, targetId: string | null) {
  if (!own || !isUuid(targetId)) return null;
  const target = (await getCounterparts([targetId])).get(targetId);
  if (!target || target.owner.profileId === actor.profileId || target.mandateType === own.mandateType) return null;
  return { target, score: scoreFor(own, target), criteria: verdictsBetween(own, target) };
}

/** What a freemium member's quotas have counted over their window. */
type QuotaUsed = { mandates: number; requests: number };

/** A freemium member's quota counts, as placeholders (one prepared build per counts object). */
const QUOTA_COUNTS = {
  quotaMandates: quotaEventsCountSql(sql.placeholder("profileId"), "mandate_created", sql.placeholder("since")),
  quotaRequests: quotaEventsCountSql(sql.placeholder("profileId"), "match_request_sent", sql.placeholder("since")),
};
const NO_QUOTA_COUNTS = { quotaMandates: sql`0`, quotaRequests: sql`0` };

/**
 * The member's mandates: with the cards' figures on the list, without them where no card shows.
 * A freemium member's quota counts ride on the same statement (a page's statements are counted): every row carries them, so they are known unless the member has no mandate.
 */
async function loadMandates(actor: MandateActor, withFigures: boolean): Promise<{ mandates: MandateWithFigures[]; quotaUsed: QuotaUsed | null }> {
  const limited = mandateQuota(actor.membershipType, 0).limited;
  const quotaCounts = limited ? QUOTA_COUNTS : NO_QUOTA_COUNTS;
  const values = { since: quotaWindowStart().toISOString() };
  const rows = withFigures
    ? await listMandateCards(actor, quotaCounts, values)
    : (await listMyMandatesWithCounts(actor, quotaCounts, values)).map((m) => ({ ...m, potentialMatches: 0, pendingSent: 0 }));
  const first = rows[0];
  return {
    mandates: rows.map(({ quotaMandates: _m, quotaRequests: _r, ...m }) => m),
    quotaUsed: limited && first ? { mandates: first.quotaMandates, requests: first.quotaRequests } : null,
  };
}

export async function loadMandatesPage(request: Request) {
  const { profile } = await requireMember(request);
  const actor = mandateActor(profile);
  const sp = new URL(request.url).searchParams;
  const tab: MandatesTab = sp.get("onglet") === "opportunites" ? "opportunites" : "mandats";
  const today = parisToday();
  // The form page (?nouveau=1, ?modifier=…) and the opportunities show no card.
  const formOpen = sp.get("nouveau") === "1" || sp.has("modifier");

  let mandates: MandateWithFigures[] = [];
  let quotaUsed: QuotaUsed | null = null;
  let loadError: string | null = null;
  try {
    ({ mandates, quotaUsed } = await loadMandates(actor, tab === "mandats" && !formOpen));
  } catch (error) {
    logger.error({ err: error }, "mandates list failed");
    loadError = MANDATE_MESSAGES.loadFailed;
  }
  // Another member's id (or an unknown one) in a dialog parameter is a 404, as for any route.
  for (const key of ["modifier", "details", "supprimer"] as const) {
    const id = sp.get(key);
    if (id && !loadError && !mandates.some((m) => m.id === id)) notFound();
  }

  // Counted with the list; read apart only for a freemium member without any mandate (or when the
  // list failed). Other tiers have no quota to count.
  const quota = !mandateQuota(actor.membershipType, 0).limited
    ? mandateQuota(actor.membershipType, 0)
    : quotaUsed
      ? mandateQuota(actor.membershipType, quotaUsed.mandates)
      : await getMandateQuota(actor).catch(() => null);

  // The panel's mandate is one of the list's (not read again) and a freemium member's request
  // quota was counted with it; the panel reads them itself only when the list failed.
  const matchingId = sp.get("matching");
  // « Voir les suivants » (?plus=n) lists n more pages of the panel's potential matches.
  const limit = matchesShown(sp.get("plus"));
  const panel = matchingId
    ? await getMatchingPanel(
        actor,
        matchingId,
        loadError
          ? { limit }
          : {
              own: mandates.map(({ potentialMatches: _s, pendingSent: _p, ...m }) => m),
              opportunities: quotaUsed ? opportunityQuota(actor.membershipType, quotaUsed.requests) : undefined,
              potentialCount: mandates.find((m) => m.id === matchingId)?.potentialMatches,
              limit,
            },
      )
    : null;

  let opportunities: Opportunity[] | null = null;
  let sentStatuses: Record<string, string> = {};
  if (tab === "opportunites" && !loadError) {
    try {
      // The statuses of the requests already sent come with the opportunities (one statement).
      const list = await listOpportunities(actor, mandates);
      opportunities = list;
      sentStatuses = Object.fromEntries(list.flatMap((o) => (o.sentStatus ? [[`${o.own.id}:${o.match.id}`, o.sentStatus]] : [])));
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

export type MandateFormActionData = { intent: "create" | "update"; result: SubmissionResult<string[]> };

async function alertSafely(actor: MandateActor, mandateId: string) {
  try {
    await alertMatchingOwners(actor, mandateId);
  } catch (error) {
    logger.warn({ err: error, mandateId }, "match alerts failed");
  }
}

type Context = {
  request: Request;
  actor: MandateActor;
  formData: FormData;
  returnTo: string;
  closeDialogs: (url: string) => string;
};

/** 'Créer le mandat' / 'Mettre à jour': the whole form is validated here, whatever step sent it. */
async function saveMandate(ctx: Context, intent: "create" | "update") {
  const { actor, formData, request } = ctx;
  const submission = parseWithZod(formData, { schema: mandateFormSchema });
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply() } satisfies MandateFormActionData, { status: 400 });
  }
  try {
    if (intent === "create") {
      const { id } = await createMandate(actor, submission.value);
      await alertSafely(actor, id);
      return redirectWithToast(ctx.closeDialogs(request.url), { type: "success", title: MANDATE_MESSAGES.created });
    }
    await updateMandate(actor, String(formData.get("mandateId") ?? ""), submission.value);
    return redirectWithToast(ctx.closeDialogs(request.url), { type: "success", title: MANDATE_MESSAGES.updated });
  } catch (error) {
    if (error instanceof QuotaReachedError) {
      return data(
        { intent, result: submission.reply({ formErrors: [MANDATE_MESSAGES.quotaReached] }) } satisfies MandateFormActionData,
        { status: 403, headers: await createToastHeaders({ type: "error", title: MANDATE_MESSAGES.quotaReached }) },
      );
    }
    const http = httpError(error);
    if (http?.status === 404) throw error;
    if (!http) logger.error({ err: error, intent }, "mandate save failed");
    const message = `${MANDATE_MESSAGES.saveFailed}${http?.message || "une erreur inattendue est survenue, veuillez réessayer."}`;
    return data(
      { intent, result: submission.reply({ formErrors: [message] }) } satisfies MandateFormActionData,
      { status: http?.status ?? 500, headers: await createToastHeaders({ type: "error", title: message }) },
    );
  }
}

async function toggleStatus({ actor, formData, returnTo }: Context) {
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

// « Remettre en recherche active »: a mandate in negotiation back to the matching.
async function resumeSearch({ actor, formData, returnTo }: Context, profile: Parameters<typeof fileActor>[0]) {
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

async function removeMandate({ actor, formData, returnTo, closeDialogs }: Context) {
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

async function requestConnection({ actor, formData, returnTo }: Context, userId: string) {
  const submission = parseWithZod(formData, { schema: matchRequestSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? undefined;
    return redirectWithToast(returnTo, { type: "error", title: MATCH_REQUEST_MESSAGES.sendFailed, description: first ?? undefined });
  }
  const limit = await consumeRateLimit(`match-request:account:${userId}`, RATE_LIMITS.matchRequestAccount);
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

async function answerRequest({ actor, formData, returnTo }: Context, accept: boolean, notifyByMail: boolean) {
  const submission = parseWithZod(formData, { schema: respondSchema });
  if (submission.status !== "success") throw new AppError("invalid", "Demande inconnue");
  let answer;
  try {
    answer = await respondToMatchRequest(actor, submission.value.requestId, accept ? "accepted" : "rejected");
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
    title: notifyByMail ? MATCH_REQUEST_MESSAGES.confirmed : MATCH_REQUEST_MESSAGES.confirmedWithoutMail,
  });
}

async function undertake({ actor, formData, returnTo }: Context) {
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

/** Every intent posted to /mandates. */
export async function mandatesAction(request: Request) {
  const { user, profile } = await requireMember(request);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const ctx: Context = {
    request,
    actor: mandateActor(profile),
    formData,
    returnTo: safeMandatesReturn(formData.get("returnTo")),
    closeDialogs: (url: string) => mandatesHref(new URL(url, "http://x").searchParams, Object.fromEntries(DIALOG_PARAMS.map((p) => [p, null]))),
  };
  switch (intent) {
    case "create":
    case "update":
      return saveMandate(ctx, intent);
    case "toggle-status":
      return toggleStatus(ctx);
    case "resume-search":
      return resumeSearch(ctx, profile);
    case "delete":
      return removeMandate(ctx);
    case "request":
    case "propose":
      return requestConnection(ctx, user.id);
    case "accept":
    case "reject":
      return answerRequest(ctx, intent === "accept", profile.notifyMatchRequests);
    case "sign-undertaking":
      return undertake(ctx);
    default:
      throw new AppError("invalid", "Action inconnue");
  }
}
