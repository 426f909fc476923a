import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { isAdminActionError } from "~/features/admin/admin-errors";
import { listReportedRatings, MODERATION_MESSAGES, moderateRating } from "~/features/admin/ratings-admin.server";
import { RatingScores } from "~/features/trust/components/rating-forms";
import { REPORT_REASON_MAX } from "~/features/trust/reputation-rules";
import { moderationSchema } from "~/features/trust/ratings.schema";
import { readForm } from "~/lib/form.server";
import { formatDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { firstFormError } from "~/lib/form-errors";
import type { Route } from "./+types/ratings";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Évaluations"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  await requireAdminAccess(request);
  return { ratings: await listReportedRatings() };
});

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdminAccess(request);
  const submission = parseWithZod(await readForm(request), { schema: moderationSchema });
  if (submission.status !== "success") {
    return data({ error: firstFormError(submission.error) }, { status: 400 });
  }
  try {
    await moderateRating(admin, submission.value);
  } catch (error) {
    if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId }, "rating moderation failed");
    return data({ error: isAdminActionError(error) ? error.message : "La décision n’a pas pu être enregistrée." }, { status: isAdminActionError(error) ? error.status : 500 });
  }
  return redirectWithToast("/admin/evaluations", { type: "success", title: submission.value.decision === "hide" ? MODERATION_MESSAGES.hidden : MODERATION_MESSAGES.kept });
});

export default function AdminRatings({ loaderData, actionData }: Route.ComponentProps) {
  const { ratings } = loaderData;
  return (
    <section aria-labelledby="ratings-title" className="grid gap-4">
      <div>
        <h2 id="ratings-title" className="text-xl font-semibold">
          Évaluations signalées
        </h2>
        <p className="text-sm text-muted-foreground">
          Masquez une évaluation contraire à la charte (avec le motif, consigné au journal) ou maintenez-la. Une évaluation masquée ne compte plus dans la
          réputation du membre.
        </p>
      </div>
      {actionData && "error" in actionData ? (
        <Alert variant="destructive">
          <AlertDescription>{actionData.error}</AlertDescription>
        </Alert>
      ) : null}
      {ratings.length === 0 ? <p className="text-sm text-muted-foreground">Aucune évaluation signalée.</p> : null}
      {ratings.map((r) => (
        <Card key={r.id} className="grid gap-3 p-4" data-testid="reported-rating">
          <p className="break-words text-sm">
            <span className="font-medium">{r.raterName}</span> a évalué <span className="font-medium">{r.ratedName}</span> le {formatDate(r.createdAt)}
          </p>
          <RatingScores scores={r.scores} />
          {r.comment ? <p className="whitespace-pre-line break-words rounded-md bg-muted/60 p-2 text-sm">{r.comment}</p> : null}
          {r.answer ? <p className="whitespace-pre-line break-words border-l-2 pl-3 text-sm">Réponse&nbsp;: {r.answer}</p> : null}
          <div>
            <p className="text-sm font-medium">Signalements</p>
            <ul className="list-disc pl-5 text-sm">
              {r.reports.map((x, i) => (
                <li key={i} className="break-words">
                  {formatDate(x.createdAt)}&nbsp;: {x.reason}
                </li>
              ))}
            </ul>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <Form method="post" className="grid min-w-0 flex-1 gap-1">
              <input type="hidden" name="decision" value="hide" />
              <input type="hidden" name="ratingId" value={r.id} />
              <label htmlFor={`reason-${r.id}`} className="text-sm font-medium">
                Motif du masquage
              </label>
              <textarea
                id={`reason-${r.id}`}
                name="reason"
                required
                rows={2}
                maxLength={REPORT_REASON_MAX}
                className="w-full rounded-md border border-input bg-background px-3 py-2 text-sm"
              />
              <Button type="submit" variant="destructive" size="sm" className="justify-self-start">
                Masquer l’évaluation
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="decision" value="keep" />
              <input type="hidden" name="ratingId" value={r.id} />
              <Button type="submit" variant="outline" size="sm">
                Maintenir l’évaluation
              </Button>
            </Form>
          </div>
        </Card>
      ))}
    </section>
  );
}
