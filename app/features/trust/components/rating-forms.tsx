// The forms and views of ratings: the three 1–5 criteria as radio groups (native
// inputs: keyboard and no-JS friendly), a rating as read, the answer and report forms.
import { Flag, Star } from "lucide-react";
import { useId } from "react";
import type * as React from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDate } from "~/lib/dates";
import { RATING_ANSWER_MAX, RATING_COMMENT_MAX, RATING_CRITERIA, RATING_CRITERION_LABELS, REPORT_REASON_MAX, type RatingCriterion } from "../reputation-rules";

export type RatingActionResult = { intent: string; error: string; ratingId?: string };

const FIELD = "w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";

function ScoreField({ criterion }: { criterion: RatingCriterion }) {
  const label = RATING_CRITERION_LABELS[criterion];
  return (
    <fieldset className="grid gap-1">
      <legend className="text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="inline-flex cursor-pointer items-center gap-1 rounded-md border px-2.5 py-1 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
            <input type="radio" name={criterion} value={n} required className="sr-only" aria-label={`${label}\u00a0: ${n} sur 5`} />
            <span aria-hidden="true">{n}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function RatingForm({ error }: { error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "rate";
  const commentId = useId();
  return (
    <Form method="post" className="grid gap-4" aria-label="Évaluer votre confrère">
      <input type="hidden" name="intent" value="rate" />
      <p className="text-sm text-muted-foreground">Notez de 1 (insuffisant) à 5 (excellent).</p>
      {RATING_CRITERIA.map((c) => (
        <ScoreField key={c} criterion={c} />
      ))}
      <div className="grid gap-1">
        <label htmlFor={commentId} className="text-sm font-medium">
          Commentaire (facultatif)
        </label>
        <textarea id={commentId} name="comment" rows={4} maxLength={RATING_COMMENT_MAX} className={FIELD} aria-describedby={`${commentId}-hint`} />
        <p id={`${commentId}-hint`} className="text-xs text-muted-foreground">
          {RATING_COMMENT_MAX} caractères au plus. Ne nommez aucun client&nbsp;: l’évaluation porte sur votre confrère.
        </p>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="justify-self-start" disabled={busy}>
        {busy ? "Envoi..." : "Envoyer mon évaluation"}
      </Button>
    </Form>
  );
}

export type RatingShown = {
  id: string;
  scores: Record<RatingCriterion, number>;
  comment: string | null;
  createdAt: string;
  answer: string | null;
};

export function RatingScores({ scores }: { scores: Record<RatingCriterion, number> }) {
  return (
    <dl className="grid gap-1 text-sm sm:grid-cols-3">
      {RATING_CRITERIA.map((c) => (
        <div key={c} className="flex items-center gap-1">
          <dt className="text-muted-foreground">{RATING_CRITERION_LABELS[c]}&nbsp;:</dt>
          <dd className="flex items-center gap-0.5 font-semibold">
            {scores[c]}/5
            <Star className="h-3.5 w-3.5 fill-amber-400 text-amber-500" aria-hidden="true" />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A rating as read (comment and the rated member's answer). */
export function RatingCard({ rating, children }: { rating: RatingShown; children?: React.ReactNode }) {
  return (
    <article className="grid gap-2 rounded-md border p-3" data-testid="rating">
      <p className="text-xs text-muted-foreground">Évaluation du {formatDate(rating.createdAt)}</p>
      <RatingScores scores={rating.scores} />
      {rating.comment ? <p className="whitespace-pre-line break-words text-sm">{rating.comment}</p> : null}
      {rating.answer ? (
        <div className="border-l-2 pl-3 text-sm">
          <p className="font-medium">Réponse du membre évalué</p>
          <p className="whitespace-pre-line break-words">{rating.answer}</p>
        </div>
      ) : null}
      {children}
    </article>
  );
}

export function AnswerForm({ ratingId, error }: { ratingId: string; error: string | null }) {
  const id = useId();
  return (
    <Form method="post" className="grid gap-2">
      <input type="hidden" name="intent" value="answer" />
      <input type="hidden" name="ratingId" value={ratingId} />
      <label htmlFor={id} className="text-sm font-medium">
        Votre réponse (publique, une seule fois)
      </label>
      <textarea id={id} name="answer" rows={3} required maxLength={RATING_ANSWER_MAX} className={FIELD} />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="outline" size="sm" className="justify-self-start">
        Publier ma réponse
      </Button>
    </Form>
  );
}

/** "Signaler": a disclosure with the reason, so that nothing is sent by a stray click. */
export function ReportForm({ ratingId, error }: { ratingId: string; error: string | null }) {
  const id = useId();
  return (
    <details className="text-sm" open={Boolean(error)}>
      <summary className="inline-flex cursor-pointer items-center gap-1 text-muted-foreground hover:text-foreground">
        <Flag className="h-3.5 w-3.5" aria-hidden="true" />
        Signaler
      </summary>
      <Form method="post" className="mt-2 grid gap-2">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="ratingId" value={ratingId} />
        <label htmlFor={id} className="font-medium">
          Motif du signalement
        </label>
        <textarea id={id} name="reason" rows={2} required maxLength={REPORT_REASON_MAX} className={FIELD} />
        {error ? (
          <p role="alert" className="text-destructive">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="outline" size="sm" className="justify-self-start">
          Envoyer le signalement
        </Button>
      </Form>
    </details>
  );
}
