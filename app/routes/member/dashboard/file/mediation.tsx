// /dashboard/dossiers/:fileId/mediation: either member asks the team to mediate
// (subject, facts, optional attachments), then follows the status, the exchange and the decision.
// Each intent is one use case of features/mediation (with its e-mails and audit rows); the route
// reads the form, maps the intent and renders.
import { parseWithZod } from "@conform-to/zod/v4";
import { Scale } from "lucide-react";
import { data } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Card } from "~/components/ui/card";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { assertFileMember } from "~/features/collaboration/file-access.server";
import { MediationThread } from "~/features/mediation/components/mediation-thread";
import { OpenMediationForm } from "~/features/mediation/components/open-mediation-form";
import { MEDIATION_LIMITS, MEDIATION_MESSAGES, mediationUrl } from "~/features/mediation/mediation-rules";
import { mediationMessageSchema, openMediationSchema } from "~/features/mediation/mediation.schema";
import { mediationActor, openMediation, postMemberMediationMessage, type UploadedFile } from "~/features/mediation/mediation.server";
import { listFileMediations } from "~/features/mediation/mediation-views.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { fieldErrors } from "~/lib/form-errors";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/mediation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Médiation"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return await listFileMediations({ profileId: profile.id }, params.fileId);
});

type ActionResult = { intent: "open" | "message"; errors: Record<string, string[]> };

const invalid = (intent: ActionResult["intent"], errors: Record<string, string[]>, status = 400) => data({ intent, errors } satisfies ActionResult, { status });

/** The attachments of the request (an empty file input sends one nameless empty part). */
async function attachments(form: FormData): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  for (const f of form.getAll("attachments")) {
    if (f instanceof File && (f.size > 0 || f.name)) files.push({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
  }
  return files;
}

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = mediationActor(user, profile);
  // A non-member's post is a 404 before its body is read.
  await assertFileMember(actor, params.fileId);
  const back = mediationUrl(params.fileId);
  // The request (with attachments) is the only multipart form of the page.
  const intent: ActionResult["intent"] = /^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "") ? "open" : "message";
  try {
    if (intent === "open") {
      const form = await readMultipartWithLimit(request, MEDIATION_LIMITS.attachmentsMax * MEDIATION_LIMITS.attachmentMaxMb);
      const s = parseWithZod(form, { schema: openMediationSchema });
      if (s.status !== "success") return invalid(intent, fieldErrors(s.error));
      await openMediation(actor, params.fileId, s.value, await attachments(form));
      return redirectWithToast(back, { type: "success", title: MEDIATION_MESSAGES.opened, description: MEDIATION_MESSAGES.openedDescription });
    }
    const form = await readForm(request);
    if (form.get("intent") !== "message") throw data({ message: "Action inconnue" }, { status: 400 });
    const s = parseWithZod(form, { schema: mediationMessageSchema });
    if (s.status !== "success") return invalid(intent, fieldErrors(s.error));
    await postMemberMediationMessage(actor, params.fileId, String(form.get("mediationId") ?? ""), s.value.body);
    return redirectWithToast(back, { type: "success", title: MEDIATION_MESSAGES.messageSent });
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.code === "too-large" ? `Les pièces jointes dépassent ${MEDIATION_LIMITS.attachmentMaxMb}\u00a0Mo chacune.` : MEDIATION_MESSAGES.failed;
      return invalid(intent, { "": [message] }, error.status);
    }
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "mediation action failed");
    return invalid(intent, { "": [expectedMessage(error, MEDIATION_MESSAGES.failed)] }, status ?? 500);
  }
});

export default function FileMediation({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { mediations, canOpen } = loaderData;
  const result = actionData as ActionResult | undefined;
  const openErrors = result?.intent === "open" ? result.errors : null;
  const messageError =
    result?.intent === "message"
      ? (Object.values(result.errors)[0]?.[0] ?? null)
      : null;
  const active = mediations.find((m) => m.active);
  return (
    <section
      aria-labelledby="mediation-title"
      className="grid grid-cols-1 gap-4"
    >
      <div className="grid gap-1">
        <h2 id="mediation-title" className="text-lg font-semibold">
          Médiation
        </h2>
        <p className="text-sm text-muted-foreground">
          La médiation est assurée par l’équipe du réseau&nbsp;: elle n’est ni un
          arbitrage ni une procédure judiciaire, et ne remplace pas les recours
          prévus par votre déontologie.
        </p>
      </div>
      {canOpen ? <OpenMediationForm errors={openErrors} /> : null}
      {mediations.length === 0 && !canOpen ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center">
          <Scale className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">Aucune médiation dans ce dossier</p>
          <p className="text-sm text-muted-foreground">
            {MEDIATION_MESSAGES.counterpartGone}
          </p>
        </Card>
      ) : null}
      {mediations.map((m) => (
        <MediationThread
          key={m.id}
          mediation={m}
          messageError={active?.id === m.id ? messageError : null}
        />
      ))}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
