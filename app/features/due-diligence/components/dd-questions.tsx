// A request's questions and the form to ask one, as the founding members' page and the
// participants' page both show them: one markup, one set of labels for both.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { SelectField } from "~/components/form-field";
import { Label, NativeSelect, Textarea } from "~/components/ui/input";
import { formatDatePattern } from "~/lib/format";
import { DD_LIMITS, DD_VISIBILITY_LABELS, type DdQuestionStatus, type DdSide } from "../due-diligence-rules";
import { DdQuestionBadge } from "./dd-badges";

export type DdQuestionView = {
  id: string;
  status: DdQuestionStatus;
  visibility: DdSide;
  /** The document the question is on, or null when it is on the request itself. */
  onDocument: string | null;
  askerName: string;
  askedByMe: boolean;
  askedAt: string;
  body: string;
  answer: string | null;
  answererName: string | null;
  answeredAt: string | null;
  canAnswer: boolean;
  canClose: boolean;
};

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

/** The questions of a request, each with its answer and, when allowed, the forms to answer or close it. */
/** `primary`: the first question to answer holds the page's primary action (« Répondre »). */
export function DdQuestionList({ questions, empty, primary = false }: { questions: DdQuestionView[]; empty: string; primary?: boolean }) {
  const first = primary ? questions.find((q) => q.canAnswer)?.id : undefined;
  if (questions.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-3" aria-label="Questions de la demande">
      {questions.map((q) => (
        <li key={q.id} className="grid gap-2 rounded-md border p-3" data-testid="dd-question">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <DdQuestionBadge status={q.status} />
            <Badge variant="outline">{DD_VISIBILITY_LABELS[q.visibility]}</Badge>
            <span className="min-w-0 break-words text-muted-foreground">
              {q.onDocument ? `Sur le document «\u00a0${q.onDocument}\u00a0» · ` : ""}
              {q.askedByMe ? "Vous" : q.askerName}, le <time dateTime={q.askedAt}>{at(q.askedAt)}</time>
            </span>
          </div>
          <p className="whitespace-pre-wrap break-words">{q.body}</p>
          {q.answer ? (
            <div className="grid gap-1 border-l-2 pl-3">
              <p className="text-sm text-muted-foreground">
                Réponse de {q.answererName}
                {q.answeredAt ? (
                  <>
                    , le <time dateTime={q.answeredAt}>{at(q.answeredAt)}</time>
                  </>
                ) : null}
              </p>
              <p className="whitespace-pre-wrap break-words" data-testid="dd-answer">
                {q.answer}
              </p>
            </div>
          ) : null}
          {q.canAnswer ? (
            <Form method="post" className="grid gap-2">
              <input type="hidden" name="intent" value="answer" />
              <input type="hidden" name="questionId" value={q.id} />
              <Label htmlFor={`dd-answer-${q.id}`}>Votre réponse</Label>
              <Textarea id={`dd-answer-${q.id}`} name="answer" rows={3} maxLength={DD_LIMITS.body} required />
              <div>
                <Button type="submit" size="sm" variant={q.id === first ? "default" : "outline"}>
                  Répondre
                </Button>
              </div>
            </Form>
          ) : null}
          {q.canClose ? (
            <Form method="post">
              <input type="hidden" name="intent" value="close-question" />
              <input type="hidden" name="questionId" value={q.id} />
              <Button type="submit" variant="ghost" size="sm">
                Clore la question
              </Button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The form to ask a question on a request, visible to the sides offered; with `documents`, the
 * question may be put on one of the request's documents instead.
 */
export function DdAskForm({
  visibilities,
  documents,
  error,
  heading: Heading = "h5",
  primary,
}: {
  visibilities: DdSide[];
  documents?: { id: string; name: string }[];
  error?: ReactNode;
  /** One level under the section's own heading, which differs between the two pages. */
  heading?: "h3" | "h5";
  primary: boolean;
}) {
  return (
    <Form method="post" className="grid gap-3 border-t pt-3" aria-labelledby="dd-ask-title">
      <Heading id="dd-ask-title" className="font-medium">
        Poser une question
      </Heading>
      {error}
      <input type="hidden" name="intent" value="ask" />
      <div className="grid gap-3 sm:grid-cols-2">
        {documents ? (
          <div className="grid gap-2">
            <Label htmlFor="dd-ask-on">Sur</Label>
            <NativeSelect id="dd-ask-on" name="documentId" defaultValue="">
              <option value="">La demande</option>
              {documents.map((d) => (
                <option key={d.id} value={d.id}>
                  Le document {d.name}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        <SelectField id="dd-ask-visibility" name="visibility" label="Visible par" values={visibilities} labels={DD_VISIBILITY_LABELS} defaultValue="commun" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="dd-ask-body">Question</Label>
        <Textarea id="dd-ask-body" name="body" rows={3} maxLength={DD_LIMITS.body} required />
      </div>
      <div>
        <Button type="submit" variant={primary ? "default" : "outline"}>
          Poser la question
        </Button>
      </div>
    </Form>
  );
}
