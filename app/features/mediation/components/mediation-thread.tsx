// One mediation as members and the team read it: the request, its status, the dated exchange,
// the decision, and (while it is active) the form to write in the exchange.
import { Paperclip, Scale } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { formatFileSize } from "~/features/collaboration/documents-rules";
import { formatDatePattern } from "~/lib/format";
import type { MediationView } from "../mediation-views.server";
import { MEDIATION_LIMITS, type MediationStatus } from "../mediation-rules";

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

const STATUS_VARIANT: Record<MediationStatus, "warning" | "accent" | "success" | "outline"> = {
  open: "warning",
  in_progress: "accent",
  resolved: "success",
  dismissed: "outline",
};

export function MediationStatusBadge({ status, label }: { status: MediationStatus; label: string }) {
  return (
    <Badge variant={STATUS_VARIANT[status]} data-testid="mediation-status">
      {label}
    </Badge>
  );
}

export function MediationThread({ mediation: m, messageError, hiddenFields }: { mediation: MediationView; messageError?: string | null; hiddenFields?: Record<string, string> }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "message";
  return (
    <article className="grid gap-4 rounded-lg border p-4" aria-labelledby={`mediation-${m.id}-title`} data-testid="mediation">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={`mediation-${m.id}-title`} className="min-w-0 break-words text-lg font-semibold">
            <Scale className="mr-2 inline h-5 w-5 align-[-3px] text-muted-foreground" aria-hidden="true" />
            {m.subject}
          </h3>
          <MediationStatusBadge status={m.status} label={m.statusLabel} />
        </div>
        <p className="text-sm text-muted-foreground">
          Demandée par {m.openedByMe ? "vous" : m.openedByName} le <time dateTime={m.createdAt}>{at(m.createdAt)}</time> · concerne {m.respondentName}
        </p>
      </header>
      <section aria-label="Exposé des faits" className="grid gap-1">
        <h4 className="text-sm font-semibold">Exposé des faits</h4>
        <p className="whitespace-pre-line break-words text-sm">{m.facts}</p>
      </section>
      {m.attachments.length ? (
        <section aria-label="Pièces jointes" className="grid gap-1">
          <h4 className="text-sm font-semibold">Pièces jointes</h4>
          <ul className="grid gap-1 text-sm">
            {m.attachments.map((a) => (
              <li key={a.id} className="flex min-w-0 items-start gap-2">
                <Paperclip className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <a href={a.url} target="_blank" rel="noopener noreferrer" className="min-w-0 break-words text-primary underline">
                  {a.name}
                </a>
                <span className="shrink-0 text-muted-foreground">({formatFileSize(a.sizeBytes)})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {m.decision ? (
        <section aria-label="Décision" className="grid gap-1 rounded-md border border-primary/30 bg-primary/5 p-3" data-testid="mediation-decision">
          <h4 className="text-sm font-semibold">
            Décision ({m.decision.outcomeLabel.toLowerCase()}) du <time dateTime={m.decision.at}>{at(m.decision.at)}</time>
          </h4>
          <p className="whitespace-pre-line break-words text-sm">{m.decision.text}</p>
          <p className="text-sm font-medium">{m.decision.upheld ?? "Aucune réclamation n’a été retenue contre un membre."}</p>
        </section>
      ) : null}
      <section aria-label="Échanges" className="grid gap-2">
        <h4 className="text-sm font-semibold">Échanges</h4>
        {m.messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun message pour l’instant.</p>
        ) : (
          <ol className="grid gap-2" aria-label="Messages de la médiation">
            {m.messages.map((msg) => (
              <li key={msg.id} className={`grid gap-1 rounded-md border p-3 text-sm ${msg.fromTeam ? "bg-muted/60" : ""}`} data-testid="mediation-message">
                <p className="text-xs text-muted-foreground">
                  <span className="font-medium text-foreground">{msg.authorName}</span> · <time dateTime={msg.at}>{at(msg.at)}</time>
                </p>
                <p className="whitespace-pre-line break-words">{msg.body}</p>
              </li>
            ))}
          </ol>
        )}
        {m.active ? (
          <Form method="post" className="grid gap-2" preventScrollReset>
            <input type="hidden" name="intent" value="message" />
            <input type="hidden" name="mediationId" value={m.id} />
            {Object.entries(hiddenFields ?? {}).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Label htmlFor={`mediation-${m.id}-body`}>Votre message</Label>
            <Textarea
              id={`mediation-${m.id}-body`}
              name="body"
              rows={3}
              required
              maxLength={MEDIATION_LIMITS.messageMax}
              aria-invalid={messageError ? true : undefined}
              aria-describedby={messageError ? `mediation-${m.id}-body-error` : undefined}
            />
            <FieldError id={`mediation-${m.id}-body-error`} errors={messageError ? [messageError] : null} />
            <div>
              <Button type="submit" variant="outline" disabled={sending}>
                {sending ? "Envoi..." : "Envoyer le message"}
              </Button>
            </div>
          </Form>
        ) : (
          <Alert>
            <AlertDescription>Cette médiation est close&nbsp;: les échanges sont terminés.</AlertDescription>
          </Alert>
        )}
      </section>
    </article>
  );
}
