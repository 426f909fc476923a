// /parametres/assurance: a validated member sees the insurance certificate on file
// (checked by the team or waiting for it) and sends the new one before or after its end date; a
// member with nothing on file files the whole evidence here. The reminder e-mails at
// 30 and 7 days lead here.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, isRouteErrorResponse, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { parisToday } from "~/features/mandates/mandate-rules";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { InsuranceFields, VerificationFields } from "~/features/trust/components/verification-fields";
import { InsuranceStatusCard } from "~/features/trust/components/insurance-status";
import { getInsuranceView, submitFirstEvidence, submitInsuranceRenewal } from "~/features/trust/insurance-renewal.server";
import {
  INSURANCE_MAX_MB,
  insuranceFieldsSchema,
  VERIFICATION_MESSAGES,
  verificationSchema,
  type InsuranceFields as InsuranceFieldsInput,
  type VerificationInput,
} from "~/features/trust/verification.schema";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/insurance-renewal";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Attestation d’assurance"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const today = parisToday();
  return { view: await getInsuranceView(profile, today), today, profession: profile.profession };
});

type ActionResult = { result: SubmissionResult<string[]> };

const formError = (message: string, status: number) => data({ result: { status: "error", error: { "": [message] } } } satisfies ActionResult, { status });

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  if (!/^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "")) return formError(VERIFICATION_MESSAGES.noFile, 400);
  let form: FormData;
  try {
    form = await readMultipartWithLimit(request, INSURANCE_MAX_MB);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return formError(error.code === "too-large" ? VERIFICATION_MESSAGES.tooLarge : error.description, error.status);
  }
  // Nothing on file yet: the whole evidence (SIREN, registration, certificate), as at onboarding.
  const first = (await getInsuranceView(profile)).evidence === null;
  const submission = first
    ? parseWithZod(form, { schema: verificationSchema(profile.profession, parisToday()) })
    : parseWithZod(form, { schema: insuranceFieldsSchema(parisToday()) });
  if (submission.status !== "success") return data({ result: submission.reply() } satisfies ActionResult, { status: 400 });
  const file = form.get("certificate");
  if (!(file instanceof File) || file.size === 0) return data({ result: submission.reply({ formErrors: [VERIFICATION_MESSAGES.noFile] }) } satisfies ActionResult, { status: 400 });
  const upload = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  const actor = { userId: user.id, profileId: profile.id };
  try {
    if (first) await submitFirstEvidence(actor, submission.value as VerificationInput, upload);
    else await submitInsuranceRenewal(actor, submission.value as InsuranceFieldsInput, upload);
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "insurance renewal failed");
    return data({ result: submission.reply({ formErrors: [expectedMessage(error, "L’attestation n’a pas pu être enregistrée. Veuillez réessayer.")] }) } satisfies ActionResult, {
      status: status ?? 500,
    });
  }
  if (first) return redirectWithToast("/parametres/assurance", { type: "success", title: VERIFICATION_MESSAGES.saved, description: VERIFICATION_MESSAGES.renewedDescription });
  return redirectWithToast("/parametres/assurance", { type: "success", title: VERIFICATION_MESSAGES.renewed, description: VERIFICATION_MESSAGES.renewedDescription });
});

export default function InsuranceRenewal({ loaderData, actionData }: Route.ComponentProps) {
  const { view, today, profession } = loaderData;
  const navigation = useNavigation();
  const first = view.evidence === null;
  const [form, fields] = useForm({
    id: first ? "verification-evidence" : "insurance-renewal",
    lastResult: (actionData as ActionResult | undefined)?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: first ? verificationSchema(profession, today) : insuranceFieldsSchema(today) }),
  });
  return (
    <section aria-labelledby="assurance-titre" className="grid grid-cols-1 gap-2">
      <h2 id="assurance-titre" className="text-xl font-semibold leading-tight">
        Attestation d’assurance
      </h2>
      <p className="text-sm text-muted-foreground">
        Votre assurance responsabilité civile professionnelle fait partie de la vérification de votre profil. L’attestation reste
        privée{"\u00a0"}: seule l’équipe du réseau la consulte.
      </p>
      <div className="mt-6 grid grid-cols-1 gap-6">
        <InsuranceStatusCard view={view} />
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid grid-cols-1 gap-4" aria-labelledby="renewal-title">
          <h3 id="renewal-title" className="text-lg font-semibold">
            {first ? "Déposer vos justificatifs" : "Déposer une nouvelle attestation"}
          </h3>
          {form.errors?.length ? (
            <Alert variant="destructive" role="alert" id={form.errorId}>
              <AlertDescription>{form.errors[0]}</AlertDescription>
            </Alert>
          ) : null}
          {first ? (
            <>
              <p className="text-sm text-muted-foreground">
                Aucun justificatif n’est enregistré pour votre profil. Renseignez votre SIREN, votre inscription professionnelle et votre
                attestation d’assurance en cours de validité{"\u00a0"}: l’équipe les vérifie avant d’accorder la mention «{"\u00a0"}Profil vérifié{"\u00a0"}».
              </p>
              <VerificationFields fields={fields} profession={profession} currentFileName={null} />
            </>
          ) : (
            <>
              <InsuranceFields fields={fields} currentFileName={null} required />
              <p className="text-sm text-muted-foreground">
                La nouvelle attestation remplace la précédente{"\u00a0"}; la mention «{"\u00a0"}Profil vérifié{"\u00a0"}» revient dès que l’équipe
                l’a vérifiée.
              </p>
            </>
          )}
          <div>
            <Button type="submit" disabled={navigation.state !== "idle"}>
              {navigation.state === "submitting" ? "Envoi en cours..." : first ? "Envoyer mes justificatifs" : "Envoyer l’attestation"}
            </Button>
          </div>
        </Form>
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) ? ((error.data as { message?: string } | null)?.message ?? "Erreur") : "Une erreur est survenue. Veuillez réessayer dans un instant.";
  return (
    <Alert variant="destructive">
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
