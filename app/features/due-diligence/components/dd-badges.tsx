import { Link } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { DD_QUESTION_STATUS_LABELS, DD_STATUS_LABELS, dueDiligenceUrl, type DdQuestionStatus, type DdStatus } from "../due-diligence-rules";

const STATUS_VARIANT = {
  requested: "outline",
  in_progress: "warning",
  provided: "secondary",
  validated: "success",
  not_applicable: "outline",
} as const;

export function DdStatusBadge({ status }: { status: DdStatus }) {
  return (
    <Badge variant={STATUS_VARIANT[status]} data-testid="dd-status">
      {DD_STATUS_LABELS[status]}
    </Badge>
  );
}

const QUESTION_VARIANT = { open: "warning", answered: "secondary", closed: "outline" } as const;

export function DdQuestionBadge({ status }: { status: DdQuestionStatus }) {
  return (
    <Badge variant={QUESTION_VARIANT[status]} data-testid="dd-question-status">
      {DD_QUESTION_STATUS_LABELS[status]}
    </Badge>
  );
}

/** « 12 / 40 fournis ou validés » with its bar (the list's page and the file's overview). */
export function DdProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <div className="grid gap-1">
      <p className="text-sm font-medium" data-testid="dd-progress">
        {label}
      </p>
      <div className="h-2 w-full overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Avancement des diligences" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The list's progress on the file's overview, with the way to the list. */
export function DdProgressCard({ fileId, progress }: { fileId: string; progress: { done: number; total: number; label: string } | null }) {
  return (
    <section className="grid gap-2 rounded-lg border p-4" aria-labelledby="dd-progress-title" data-testid="dd-progress-card">
      <h3 id="dd-progress-title" className="text-lg font-semibold">
        Diligences
      </h3>
      {progress ? <DdProgressBar {...progress} /> : <p className="text-sm text-muted-foreground">Aucune liste de diligences pour l’instant.</p>}
      <p className="text-sm">
        <Link className="text-primary underline" to={dueDiligenceUrl(fileId)}>
          {progress ? "Ouvrir la liste de diligences" : "Créer la liste de diligences"}
        </Link>
      </p>
    </section>
  );
}

/** The refusal of one of the page's forms, next to that form. */
export function DdIntentError({ result, intents }: { result: { intent: string; error: string } | undefined; intents: readonly string[] }) {
  if (!result || !intents.includes(result.intent)) return null;
  return (
    <Alert variant="destructive" role="alert">
      <AlertDescription>{result.error}</AlertDescription>
    </Alert>
  );
}
