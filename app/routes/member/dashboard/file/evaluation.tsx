import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Card } from "~/components/ui/card";
import { fileUrl } from "~/features/collaboration/collaboration-rules";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { assertFileMember, fileActor } from "~/features/collaboration/file-access.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { AnswerForm, RatingCard, RatingForm, ReportForm, type RatingActionResult } from "~/features/trust/components/rating-forms";
import { answerSchema, ratingSchema, reportSchema } from "~/features/trust/ratings.schema";
import { answerRating, getFileRatings, rateCounterpart, reportRating } from "~/features/trust/ratings.server";
import { RATING_MESSAGES } from "~/features/trust/reputation-rules";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { formatDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/evaluation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Évaluation du dossier"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return { ratings: await getFileRatings(fileActor(profile), params.fileId) };
});

const SUCCESS = { rate: RATING_MESSAGES.rated, answer: RATING_MESSAGES.answered, report: RATING_MESSAGES.reported } as const;

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { profile } = await requireMember(request);
  const actor = fileActor(profile);
  // Forged posts to another member's file: 404 before the form is read.
  await assertFileMember(actor, params.fileId);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  if (intent !== "rate" && intent !== "answer" && intent !== "report") throw data({ message: "Action inconnue" }, { status: 400 });
  const fail = (error: string, status: number) => data({ intent, error } satisfies RatingActionResult, { status });
  try {
    if (intent === "rate") {
      const s = parseWithZod(form, { schema: ratingSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await rateCounterpart(actor, params.fileId, s.value);
    } else if (intent === "answer") {
      const s = parseWithZod(form, { schema: answerSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await answerRating(actor, s.value.ratingId, s.value);
    } else {
      const s = parseWithZod(form, { schema: reportSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await reportRating(actor, s.value.ratingId, s.value);
    }
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) {
      logger.error({ err: error, requestId: context.requestId, intent }, "rating command failed");
      throw error;
    }
    return fail(expectedMessage(error, "L’opération n’a pas pu aboutir."), status);
  }
  return redirectWithToast(`${fileUrl(params.fileId)}/evaluation`, { type: "success", title: SUCCESS[intent] });
});

export default function FileEvaluation({ loaderData, actionData }: Route.ComponentProps) {
  const { ratings } = loaderData;
  const result = actionData && "intent" in actionData ? (actionData as RatingActionResult) : undefined;
  const errorOf = (intent: string) => (result?.intent === intent ? result.error : null);
  const e = ratings.eligibility;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card className="grid content-start gap-4 p-4" aria-labelledby="rate-title">
        <h3 id="rate-title" className="text-lg font-semibold">
          Votre évaluation de votre confrère
        </h3>
        {ratings.given ? (
          <>
            <RatingCard rating={ratings.given} />
            <p className="text-sm text-muted-foreground">
              {ratings.given.visible
                ? "Votre évaluation est visible par votre confrère et les membres du réseau."
                : `Votre évaluation restera masquée jusqu’à ce que votre confrère ait évalué à son tour, au plus tard le ${formatDate(ratings.windowEndsAt!)}.`}
            </p>
          </>
        ) : e.ok ? (
          <>
            <p className="text-sm text-muted-foreground">
              Évaluation en double aveugle&nbsp;: aucune des deux évaluations n’est visible avant que vous ayez tous deux évalué, ou au plus tard le{" "}
              {formatDate(ratings.windowEndsAt!)}.
            </p>
            <RatingForm error={errorOf("rate")} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">
            {e.reason === "not-ended"
              ? RATING_MESSAGES.notEnded
              : e.reason === "window-closed"
                ? RATING_MESSAGES.windowClosed
                : e.reason === "counterpart-gone"
                  ? RATING_MESSAGES.counterpartGone
                  : RATING_MESSAGES.alreadyRated}
          </p>
        )}
      </Card>
      <Card className="grid content-start gap-4 p-4" aria-labelledby="received-title">
        <h3 id="received-title" className="text-lg font-semibold">
          L’évaluation de votre confrère
        </h3>
        {ratings.received ? (
          ratings.received.hidden ? (
            <p className="text-sm text-muted-foreground">Cette évaluation a été masquée par l’équipe du réseau après un signalement.</p>
          ) : (
            <RatingCard rating={ratings.received}>
              {ratings.received.answer ? null : <AnswerForm ratingId={ratings.received.id} error={errorOf("answer")} />}
              <ReportForm ratingId={ratings.received.id} error={errorOf("report")} />
            </RatingCard>
          )
        ) : (
          <p className="text-sm text-muted-foreground">
            {ratings.counterpartRated
              ? "Votre confrère vous a évalué\u00a0: son évaluation s’affichera dès que vous aurez évalué à votre tour, ou à la fin de la période d’évaluation."
              : "Votre confrère ne vous a pas encore évalué."}
          </p>
        )}
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
