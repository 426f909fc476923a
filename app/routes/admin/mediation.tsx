// /admin/mediations/:mediationId: one mediation for the team: the request, the
// exchange with both members, the commands (en cours, message, decision) and, while it is active,
// the file's timeline and documents list (read only; the documents themselves stay private).
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, isRouteErrorResponse, useNavigation } from "react-router";
import { BackLink } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldError, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { formatFileSize } from "~/features/collaboration/documents-rules";
import { MediationThread } from "~/features/mediation/components/mediation-thread";
import { decideMediation, getMediationForAdmin, postAdminMediationMessage, startMediation, type MediatedFile } from "~/features/mediation/mediation-admin.server";
import { adminMediationUrl, BREACH_KIND_LABELS, BREACH_KINDS, MEDIATION_LIMITS, MEDIATION_MESSAGES } from "~/features/mediation/mediation-rules";
import { mediationDecisionSchema, mediationMessageSchema, mediationStatusSchema } from "~/features/mediation/mediation.schema";
import type { MediationView } from "~/features/mediation/mediation-views.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { fieldErrors } from "~/lib/form-errors";
import { formatAdminDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/mediation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Médiation"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminAccess(request);
  return await getMediationForAdmin(params.mediationId);
});

type ActionResult = { intent: string; errors: Record<string, string[]> };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireAdminAccess(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const back = adminMediationUrl(params.mediationId);
  try {
    if (intent === "start") {
      const s = parseWithZod(form, { schema: mediationStatusSchema });
      if (s.status !== "success") return data({ intent, errors: fieldErrors(s.error) } satisfies ActionResult, { status: 400 });
      await startMediation(actor, params.mediationId);
      return redirectWithToast(back, { type: "success", title: MEDIATION_MESSAGES.statusChanged });
    }
    if (intent === "message") {
      const s = parseWithZod(form, { schema: mediationMessageSchema });
      if (s.status !== "success") return data({ intent, errors: fieldErrors(s.error) } satisfies ActionResult, { status: 400 });
      await postAdminMediationMessage(actor, params.mediationId, s.value.body);
      return redirectWithToast(back, { type: "success", title: MEDIATION_MESSAGES.messageSent });
    }
    if (intent === "decide") {
      const s = parseWithZod(form, { schema: mediationDecisionSchema });
      if (s.status !== "success") return data({ intent, errors: fieldErrors(s.error) } satisfies ActionResult, { status: 400 });
      await decideMediation(actor, params.mediationId, s.value);
      return redirectWithToast(back, { type: "success", title: MEDIATION_MESSAGES.decided });
    }
    return data({ intent, errors: { "": ["Action inconnue."] } } satisfies ActionResult, { status: 400 });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId, intent }, "admin mediation action failed");
    return data({ intent, errors: { "": [expectedMessage(error, MEDIATION_MESSAGES.failed)] } } satisfies ActionResult, { status: status ?? 500 });
  }
});

function DecisionForm({ mediation: m, errors }: { mediation: MediationView; errors: Record<string, string[]> | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <Form method="post" className="grid gap-3 rounded-lg border p-4" aria-labelledby="decision-title">
      <input type="hidden" name="intent" value="decide" />
      <h3 id="decision-title" className="font-semibold">
        Rendre la décision
      </h3>
      {errors?.[""] ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{errors[""][0]}</AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-2">
        <Label htmlFor="decision-outcome">Issue</Label>
        <NativeSelect id="decision-outcome" name="outcome" required defaultValue="resolved" aria-invalid={errors?.outcome ? true : undefined}>
          <option value="resolved">Résolue</option>
          <option value="dismissed">Classée</option>
        </NativeSelect>
        <FieldError errors={errors?.outcome} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="decision-text">Décision écrite (communiquée aux deux membres)</Label>
        <Textarea
          id="decision-text"
          name="decision"
          rows={5}
          required
          minLength={MEDIATION_LIMITS.decisionMin}
          maxLength={MEDIATION_LIMITS.decisionMax}
          aria-invalid={errors?.decision ? true : undefined}
          aria-describedby={errors?.decision ? "decision-text-error" : undefined}
        />
        <FieldError id="decision-text-error" errors={errors?.decision} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="decision-against">Réclamation fondée</Label>
        <NativeSelect id="decision-against" name="against" defaultValue="none" aria-invalid={errors?.against ? true : undefined}>
          <option value="none">Aucune réclamation retenue</option>
          <option value="respondent">Fondée à l’encontre de {m.respondentName}</option>
          <option value="opener">Fondée à l’encontre de {m.openedByName}</option>
        </NativeSelect>
        <FieldError errors={errors?.against} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="decision-kind">Nature du manquement (si fondée)</Label>
        <NativeSelect id="decision-kind" name="breachKind" defaultValue="" aria-invalid={errors?.breachKind ? true : undefined}>
          <option value="">—</option>
          {BREACH_KINDS.map((k) => (
            <option key={k} value={k}>
              {BREACH_KIND_LABELS[k]}
            </option>
          ))}
        </NativeSelect>
        <p className="text-sm text-muted-foreground">Une réclamation fondée compte dans la réputation du membre (règles publiées sur la page tiers de confiance).</p>
        <FieldError errors={errors?.breachKind} />
      </div>
      <div>
        {/* While the request waits to be taken in charge, that is the page's one primary action. */}
        <Button type="submit" variant={m.status === "open" ? "outline" : "default"} disabled={busy}>
          Enregistrer la décision
        </Button>
      </div>
    </Form>
  );
}

function FileRead({ file }: { file: MediatedFile }) {
  return (
    <section aria-labelledby="file-title" className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4" data-testid="mediated-file">
      <h3 id="file-title" className="font-semibold">
        Dossier concerné (lecture seule pendant la médiation)
      </h3>
      <p className="text-sm wrap-anywhere text-muted-foreground">
        Étape&nbsp;: {file.stageLabel} · {file.mandateALabel} / {file.mandateBLabel}
      </p>
      <div className="grid min-w-0 grid-cols-1 gap-1">
        <h4 className="text-sm font-semibold">Historique</h4>
        <ol className="grid grid-cols-1 gap-1 text-sm" aria-label="Historique du dossier">
          {file.timeline.map((e) => (
            <li key={e.id} className="wrap-anywhere">
              <time dateTime={e.at} className="text-muted-foreground">
                {formatAdminDate(e.at)}
              </time>{" "}
              — {e.label}
              {e.detail ? ` (${e.detail})` : ""}
              {e.actorName ? ` · ${e.actorName}` : ""}
            </li>
          ))}
        </ol>
      </div>
      <div className="grid min-w-0 grid-cols-1 gap-1">
        <h4 className="text-sm font-semibold">Documents partagés</h4>
        {file.documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun document partagé.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-1 text-sm" aria-label="Documents du dossier">
            {file.documents.map((d) => (
              <li key={d.id} className="wrap-anywhere">
                {d.name} — {d.typeLabel}, {formatFileSize(d.sizeBytes)}, partagé par {d.uploaderName} le {formatAdminDate(d.sharedAt)}
                {d.withdrawnAt ? ` (retiré le ${formatAdminDate(d.withdrawnAt)})` : ""}
              </li>
            ))}
          </ul>
        )}
        <p className="text-xs text-muted-foreground">Le contenu des documents reste réservé aux deux membres du dossier.</p>
      </div>
    </section>
  );
}

export default function AdminMediation({ loaderData, actionData }: Route.ComponentProps) {
  const { mediation: m, file } = loaderData;
  const result = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const messageError = result?.intent === "message" ? (Object.values(result.errors)[0]?.[0] ?? null) : null;
  return (
    <section className="grid grid-cols-1 gap-4" aria-label="Médiation">
      <BackLink to="/admin/mediations" label="Toutes les médiations" />
      <h2 className="text-xl font-semibold">
        Médiation entre {m.openedByName} et {m.respondentName}
      </h2>
      {result && result.intent === "start" && result.errors[""] ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{result.errors[""][0]}</AlertDescription>
        </Alert>
      ) : null}
      {m.status === "open" ? (
        <Form method="post" className="flex flex-wrap items-center gap-3 rounded-lg border p-4">
          <input type="hidden" name="intent" value="start" />
          <input type="hidden" name="to" value="in_progress" />
          <p className="min-w-0 flex-1 text-sm">Cette demande attend sa prise en charge. Les deux membres seront prévenus par e-mail.</p>
          <Button type="submit" disabled={navigation.state !== "idle"}>
            Passer «&nbsp;En cours&nbsp;»
          </Button>
        </Form>
      ) : null}
      <MediationThread mediation={m} messageError={messageError} />
      {m.active ? <DecisionForm mediation={m} errors={result?.intent === "decide" ? result.errors : null} /> : null}
      {file ? (
        <FileRead file={file} />
      ) : (
        <p className="text-sm text-muted-foreground">La médiation est close&nbsp;: l’accès de l’équipe au dossier a pris fin avec la décision.</p>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="grid gap-4">
      <BackLink to="/admin/mediations" label="Toutes les médiations" />
      <Alert variant="destructive">
        <AlertTitle>{notFound ? "Médiation introuvable" : "Erreur"}</AlertTitle>
        <AlertDescription>{notFound ? MEDIATION_MESSAGES.notFound : "Une erreur est survenue. Veuillez réessayer dans un instant."}</AlertDescription>
      </Alert>
    </div>
  );
}
