import { Check, Minus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { formatDate } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { FileView } from "../file-view.server";
import { actionVariant, type FileAction } from "../next-action-rules";
import {
  ABANDON_REASON_LABELS,
  ABANDON_REASONS,
  AMOUNT_BAND_LABELS,
  AMOUNT_BANDS,
  canProposeClosing,
  isClosed,
  nextStage,
  previousStage,
  STAGE_LABELS,
  stageSteps,
} from "../collaboration-rules";

export type IntentResult = { intent: string; error: string };

function IntentError({ result, intent }: { result?: IntentResult; intent: string | string[] }) {
  const intents = Array.isArray(intent) ? intent : [intent];
  if (!result || !intents.includes(result.intent)) return null;
  return (
    <Alert variant="destructive">
      <AlertDescription>{result.error}</AlertDescription>
    </Alert>
  );
}

/** Where the file stands, the stage buttons, the two-sided closing and the abandonment. */
export function FileStages({ file, result, primary }: { file: FileView; result?: IntentResult; primary: FileAction | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const closed = isClosed(file.stage);
  const next = nextStage(file.stage);
  const previous = previousStage(file.stage);
  return (
    <Card className="grid gap-4 p-4" aria-labelledby="stages-title">
      <h3 id="stages-title" className="text-lg font-semibold">
        Avancement
      </h3>
      <ol className="flex flex-wrap gap-2" aria-label="Étapes du dossier">
        {stageSteps(file.stage, file.stagesReached).map(({ stage, state }, i) => (
          <li
            key={stage}
            aria-current={state === "current" ? "step" : undefined}
            className={cn(
              "flex flex-auto items-center gap-2 whitespace-nowrap rounded-md border px-2 py-1.5 text-xs",
              state === "current" && "border-primary bg-primary/10 font-semibold",
              state === "done" && "text-muted-foreground",
              state === "skipped" && "border-dashed text-muted-foreground",
            )}
          >
            {state === "done" ? (
              <Check className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            ) : state === "skipped" ? (
              <Minus className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            ) : (
              <span className="w-3.5 shrink-0 text-center">{i + 1}</span>
            )}
            <span className={cn(state === "skipped" && "line-through")}>{STAGE_LABELS[stage]}</span>
            {state === "skipped" ? <span>(étape sautée)</span> : state === "done" ? <span className="sr-only">(terminée)</span> : null}
          </li>
        ))}
      </ol>

      {file.stage === "concluded" ? (
        <Alert variant="success">
          <AlertDescription>
            Dossier conclu{file.closing.closingDate ? `, acte signé le ${formatDate(file.closing.closingDate)}` : ""}
            {file.closing.amountBandLabel ? ` (${file.closing.amountBandLabel})` : ""}.
          </AlertDescription>
        </Alert>
      ) : null}
      {file.abandon ? (
        <Alert>
          <AlertDescription>
            Dossier abandonné le {formatDate(file.abandon.at)} — {file.abandon.reasonLabel}
            {file.abandon.text ? `\u00a0: ${file.abandon.text}` : ""}.
          </AlertDescription>
        </Alert>
      ) : null}

      <IntentError result={result} intent={["move", "confirm-closing", "withdraw-closing"]} />
      {!closed ? (
        <div className="flex flex-wrap gap-2">
          {next ? (
            <Form method="post">
              <input type="hidden" name="to" value={next} />
              <Button type="submit" name="intent" value="move" variant={actionVariant(primary, "move")} disabled={busy} className="h-auto min-h-10 whitespace-normal">
                Passer à l’étape «&nbsp;{STAGE_LABELS[next]}&nbsp;»
              </Button>
            </Form>
          ) : null}
          {previous ? (
            <Form method="post">
              <input type="hidden" name="to" value={previous} />
              <Button type="submit" name="intent" value="move" variant="outline" disabled={busy} className="h-auto min-h-10 whitespace-normal">
                Revenir à «&nbsp;{STAGE_LABELS[previous]}&nbsp;»
              </Button>
            </Form>
          ) : null}
        </div>
      ) : null}

      {!closed && canProposeClosing(file.stage) ? <Closing file={file} result={result} busy={busy} primary={primary} /> : null}
      {!closed ? <Abandon result={result} busy={busy} /> : null}
    </Card>
  );
}

function Closing({ file, result, busy, primary }: { file: FileView; result?: IntentResult; busy: boolean; primary: FileAction | null }) {
  if (file.closing.proposedByThem) {
    return (
      <section aria-labelledby="closing-title" className="grid gap-2 rounded-md border border-primary p-3">
        <h4 id="closing-title" className="font-semibold">
          Conclusion à confirmer
        </h4>
        <p className="text-sm">
          Votre confrère indique que l’acte a été signé le {file.closing.closingDate ? formatDate(file.closing.closingDate) : "—"}
          {file.closing.amountBandLabel ? ` (${file.closing.amountBandLabel})` : ""}. Confirmez-vous&nbsp;?
        </p>
        <Form method="post">
          <Button type="submit" name="intent" value="confirm-closing" variant={actionVariant(primary, "confirm-closing")} disabled={busy}>
            Confirmer la conclusion
          </Button>
        </Form>
        <p className="text-xs text-muted-foreground">Si la date ou la tranche est inexacte, proposez la vôtre ci-dessous.</p>
        <ClosingForm result={result} busy={busy} label="Proposer une autre date ou tranche" primary={false} />
      </section>
    );
  }
  if (file.closing.proposedByMe) {
    return (
      <section aria-labelledby="closing-title" className="grid gap-2 rounded-md border p-3">
        <h4 id="closing-title" className="font-semibold">
          Conclusion proposée
        </h4>
        <p className="text-sm">
          Vous avez indiqué une signature le {file.closing.closingDate ? formatDate(file.closing.closingDate) : "—"}
          {file.closing.amountBandLabel ? ` (${file.closing.amountBandLabel})` : ""}. En attente de la confirmation de votre confrère.
        </p>
        <Form method="post">
          <Button type="submit" name="intent" value="withdraw-closing" variant="outline" disabled={busy}>
            Retirer ma proposition
          </Button>
        </Form>
      </section>
    );
  }
  return (
    <section aria-labelledby="closing-title" className="grid gap-2 rounded-md border p-3">
      <h4 id="closing-title" className="font-semibold">
        L’opération est signée&nbsp;?
      </h4>
      <p className="text-sm text-muted-foreground">
        Indiquez la date de signature de l’acte&nbsp;; le dossier sera conclu quand votre confrère l’aura confirmée. Aucun prix exact
        n’est demandé, seulement une tranche facultative.
      </p>
      <ClosingForm result={result} busy={busy} label="Proposer de conclure" primary={primary === "propose-closing"} />
    </section>
  );
}

function ClosingForm({ result, busy, label, primary }: { result?: IntentResult; busy: boolean; label: string; primary: boolean }) {
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-2">
      <div className="grid gap-1">
        <Label htmlFor="closingDate">Date de signature de l’acte</Label>
        <Input id="closingDate" name="closingDate" type="date" required />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="amountBand">Tranche de montant (facultatif)</Label>
        <NativeSelect id="amountBand" name="amountBand" defaultValue="">
          <option value="">Ne pas préciser</option>
          {AMOUNT_BANDS.map((b) => (
            <option key={b} value={b}>
              {AMOUNT_BAND_LABELS[b]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="sm:col-span-2">
        <IntentError result={result} intent="propose-closing" />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" name="intent" value="propose-closing" variant={primary ? "default" : "outline"} disabled={busy}>
          {label}
        </Button>
      </div>
    </Form>
  );
}

function Abandon({ result, busy }: { result?: IntentResult; busy: boolean }) {
  const open = result?.intent === "abandon";
  return (
    <details className="rounded-md border p-3" open={open}>
      <summary className="cursor-pointer text-sm font-medium">Abandonner ce dossier</summary>
      <Form method="post" className="mt-3 grid gap-3">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Motif</legend>
          {ABANDON_REASONS.map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm">
              <input type="radio" name="reason" value={r} required className="h-4 w-4" />
              {ABANDON_REASON_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-1">
          <Label htmlFor="abandon-text">Précisions (obligatoires pour «&nbsp;Autre motif&nbsp;»)</Label>
          <Textarea id="abandon-text" name="text" rows={2} maxLength={500} />
        </div>
        <IntentError result={result} intent="abandon" />
        <div>
          <Button type="submit" name="intent" value="abandon" variant="destructive" disabled={busy}>
            Marquer comme abandonné
          </Button>
        </div>
      </Form>
    </details>
  );
}
