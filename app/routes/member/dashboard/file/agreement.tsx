import { parseWithZod } from "@conform-to/zod/v4";
import { FileSignature } from "lucide-react";
import { data } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { AGREEMENT_MESSAGES, agreementUrl } from "~/features/collaboration/agreement-rules";
import { agreementSchema, signAgreementSchema } from "~/features/collaboration/agreement.schema";
import { getAgreementPage } from "~/features/collaboration/agreements.server";
import { createAgreement } from "~/features/collaboration/agreement-versions.server";
import { signAgreement } from "~/features/collaboration/agreement-signing.server";
import {
  AgreementForm,
  AgreementHistory,
  CurrentAgreement,
  type AgreementActionResult,
} from "~/features/collaboration/components/agreement-forms";
import { assertFileMember, fileActor } from "~/features/collaboration/file-access.server";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { getClientIp } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/agreement";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Convention d’honoraires"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return { page: await getAgreementPage({ profileId: profile.id }, params.fileId) };
});

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { profile } = await requireMember(request);
  const actor = fileActor(profile);
  // Forged posts to another member's file: 404 before the form is read.
  await assertFileMember(actor, params.fileId);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "create" && intent !== "sign") throw data({ message: "Action inconnue" }, { status: 400 });
  try {
    if (intent === "create") {
      const submission = parseWithZod(form, { schema: agreementSchema });
      if (submission.status !== "success") {
        return data({ intent, result: submission.reply() } satisfies AgreementActionResult, { status: 400 });
      }
      const created = await createAgreement(actor, params.fileId, submission.value);
      return redirectWithToast(agreementUrl(params.fileId), { type: "success", title: AGREEMENT_MESSAGES.created, description: `Version ${created.version}` });
    }
    const submission = parseWithZod(form, { schema: signAgreementSchema });
    if (submission.status !== "success") {
      return data({ intent, result: submission.reply({ hideFields: ["password", "code"] }) } satisfies AgreementActionResult, { status: 400 });
    }
    const { agreementId, documentSha256, password, code } = submission.value;
    const outcome = await signAgreement(
      actor,
      params.fileId,
      { agreementId, documentSha256, password, code },
      { ipAddress: getClientIp(request), userAgent: request.headers.get("user-agent") },
    );
    return redirectWithToast(agreementUrl(params.fileId), {
      type: "success",
      title: outcome.completed ? AGREEMENT_MESSAGES.completed : AGREEMENT_MESSAGES.signed,
    });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404 && intent === "create") throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId, intent }, "agreement command failed");
    const message = expectedMessage(error, "L’opération n’a pas pu aboutir. Veuillez réessayer dans un instant.");
    return data({ intent, error: message } satisfies AgreementActionResult, { status: status ?? 500 });
  }
});

export default function FileAgreement({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = loaderData;
  const result = actionData as AgreementActionResult | undefined;
  // A version to sign: signing is the page's one primary action, a new proposal is secondary.
  const awaitingMySignature = page.current?.status === "pending" && !page.current.signedByMe && !page.signBlockedBy;
  return (
    <section aria-labelledby="agreement-title" className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h3 id="agreement-title" className="text-lg font-semibold">
          Convention de partage d’honoraires
        </h3>
        <p className="text-sm text-muted-foreground">
          Fixez avec votre confrère la répartition des honoraires de l’opération (co-mandat). La convention est produite en PDF et signée
          électroniquement par chacun de vous&nbsp;; une fois signée par les deux, elle ne peut plus être modifiée.
        </p>
      </div>
      {page.current ? (
        <CurrentAgreement page={page} agreement={page.current} result={result} />
      ) : (
        <Card className="flex flex-col items-center gap-2 p-8 text-center" data-testid="agreement-empty">
          <FileSignature className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">Aucune convention pour l’instant</p>
          <p className="text-sm text-muted-foreground">La convention que vous ou votre confrère proposerez apparaîtra ici, prête à être signée.</p>
        </Card>
      )}
      {page.createBlockedBy ? (
        page.current?.status === "signed" ? null : (
          <Alert>
            <AlertDescription>{page.createBlockedBy}</AlertDescription>
          </Alert>
        )
      ) : (
        <AgreementForm page={page} result={result} primary={!awaitingMySignature} />
      )}
      <AgreementHistory history={page.history} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
