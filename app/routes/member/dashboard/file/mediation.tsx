// /dashboard/dossiers/:fileId/mediation (issue 14 §4): either member asks the team to mediate
// (subject, facts, optional attachments), then follows the status, the exchange and the decision.
import { parseWithZod } from "@conform-to/zod/v4";
import { Scale, Send } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldError, Input, Label, Textarea } from "~/components/ui/input";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { ACCEPTED_DOCUMENT_TYPES } from "~/features/collaboration/documents-rules";
import { assertFileMember } from "~/features/collaboration/file-access.server";
import { MediationThread } from "~/features/mediation/components/mediation-thread";
import {
  MEDIATION_LIMITS,
  MEDIATION_MESSAGES,
  mediationUrl,
} from "~/features/mediation/mediation-rules";
import {
  mediationMessageSchema,
  openMediationSchema,
} from "~/features/mediation/mediation.schema";
import {
  listFileMediations,
  mediationActor,
  openMediation,
  postMemberMediationMessage,
  type UploadedFile,
} from "~/features/mediation/mediation.server";
import { expectedMessage, expectedStatus } from "~/features/messages/errors";
import { readForm } from "~/lib/form.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import {
  readMultipartWithLimit,
  UploadError,
} from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/mediation";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Médiation"),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return await listFileMediations({ profileId: profile.id }, params.fileId);
}

type ActionResult = {
  intent: "open" | "message";
  errors: Record<string, string[]>;
};

const firstErrors = (
  error: Record<string, string[] | null> | null | undefined,
): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(error ?? {}).filter(
      (e): e is [string, string[]] => Array.isArray(e[1]) && e[1].length > 0,
    ),
  );

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = mediationActor(user, profile);
  // A non-member's post is a 404 before its body is read.
  await assertFileMember(actor, params.fileId);
  const back = mediationUrl(params.fileId);
  const multipart = /^multipart\/form-data;/i.test(
    request.headers.get("content-type") ?? "",
  );
  const intent: ActionResult["intent"] = multipart ? "open" : "message";
  try {
    if (multipart) {
      const form = await readMultipartWithLimit(
        request,
        MEDIATION_LIMITS.attachmentsMax * MEDIATION_LIMITS.attachmentMaxMb,
      );
      const submission = parseWithZod(form, { schema: openMediationSchema });
      if (submission.status !== "success")
        return data(
          {
            intent,
            errors: firstErrors(submission.error),
          } satisfies ActionResult,
          { status: 400 },
        );
      const files: UploadedFile[] = [];
      for (const f of form.getAll("attachments")) {
        if (f instanceof File && (f.size > 0 || f.name))
          files.push({
            name: f.name,
            bytes: new Uint8Array(await f.arrayBuffer()),
          });
      }
      await openMediation(actor, params.fileId, submission.value, files);
      return redirectWithToast(back, {
        type: "success",
        title: MEDIATION_MESSAGES.opened,
        description: MEDIATION_MESSAGES.openedDescription,
      });
    }
    const form = await readForm(request);
    if (form.get("intent") !== "message")
      throw data({ message: "Action inconnue" }, { status: 400 });
    const submission = parseWithZod(form, { schema: mediationMessageSchema });
    if (submission.status !== "success")
      return data(
        {
          intent,
          errors: firstErrors(submission.error),
        } satisfies ActionResult,
        { status: 400 },
      );
    await postMemberMediationMessage(
      actor,
      params.fileId,
      String(form.get("mediationId") ?? ""),
      submission.value.body,
    );
    return redirectWithToast(back, {
      type: "success",
      title: MEDIATION_MESSAGES.messageSent,
    });
  } catch (error) {
    if (error instanceof UploadError) {
      const message =
        error.code === "too-large"
          ? `Les pièces jointes dépassent ${MEDIATION_LIMITS.attachmentMaxMb} Mo chacune.`
          : MEDIATION_MESSAGES.failed;
      return data(
        { intent, errors: { "": [message] } } satisfies ActionResult,
        { status: error.status },
      );
    }
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null)
      logger.error(
        { err: error, requestId: context.requestId },
        "mediation action failed",
      );
    return data(
      {
        intent,
        errors: { "": [expectedMessage(error, MEDIATION_MESSAGES.failed)] },
      } satisfies ActionResult,
      { status: status ?? 500 },
    );
  }
}

function OpenForm({ errors }: { errors: Record<string, string[]> | null }) {
  const navigation = useNavigation();
  const sending =
    navigation.state !== "idle" &&
    navigation.formEncType === "multipart/form-data";
  const general = errors?.[""]?.[0];
  return (
    <Card className="p-4">
      <Form
        method="post"
        encType="multipart/form-data"
        className="grid gap-3"
        aria-labelledby="open-mediation-title"
      >
        <h3 id="open-mediation-title" className="font-semibold">
          Demander une médiation
        </h3>
        <p className="text-sm text-muted-foreground">
          Un désaccord avec votre confrère que vous n'arrivez pas à régler ?
          L'équipe du réseau examine la demande, échange avec vous deux et rend
          une décision écrite. Pendant la médiation, elle peut lire l'historique
          et la liste des documents de ce dossier (pas leur contenu) ; votre
          confrère est prévenu par e-mail.
        </p>
        {general ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{general}</AlertDescription>
          </Alert>
        ) : null}
        <div className="grid gap-2">
          <Label htmlFor="mediation-subject">Objet</Label>
          <Input
            id="mediation-subject"
            name="subject"
            required
            minLength={MEDIATION_LIMITS.subjectMin}
            maxLength={MEDIATION_LIMITS.subjectMax}
            aria-invalid={errors?.subject ? true : undefined}
            aria-describedby={
              errors?.subject ? "mediation-subject-error" : undefined
            }
          />
          <FieldError id="mediation-subject-error" errors={errors?.subject} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="mediation-facts">Exposé des faits</Label>
          <Textarea
            id="mediation-facts"
            name="facts"
            rows={6}
            required
            minLength={MEDIATION_LIMITS.factsMin}
            maxLength={MEDIATION_LIMITS.factsMax}
            aria-invalid={errors?.facts ? true : undefined}
            aria-describedby={
              errors?.facts
                ? "mediation-facts-error mediation-facts-hint"
                : "mediation-facts-hint"
            }
          />
          <p
            id="mediation-facts-hint"
            className="text-sm text-muted-foreground"
          >
            Décrivez les faits, datés si possible. Votre confrère et l'équipe du
            réseau liront cet exposé.
          </p>
          <FieldError id="mediation-facts-error" errors={errors?.facts} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="mediation-attachments">
            Pièces jointes (facultatif)
          </Label>
          <Input
            id="mediation-attachments"
            name="attachments"
            type="file"
            multiple
            accept={ACCEPTED_DOCUMENT_TYPES}
            aria-describedby="mediation-attachments-hint"
            className="h-auto"
          />
          <p
            id="mediation-attachments-hint"
            className="text-sm text-muted-foreground"
          >
            Jusqu'à {MEDIATION_LIMITS.attachmentsMax} fichiers (PDF, image JPEG
            ou PNG, Excel ou Word), {MEDIATION_LIMITS.attachmentMaxMb} Mo au
            plus chacun. Seuls vous et l'équipe du réseau y avez accès.
          </p>
        </div>
        <div>
          <Button type="submit" disabled={sending}>
            <Send aria-hidden="true" />
            {sending ? "Envoi en cours..." : "Envoyer la demande"}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

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
          La médiation est assurée par l'équipe du réseau : elle n'est ni un
          arbitrage ni une procédure judiciaire, et ne remplace pas les recours
          prévus par votre déontologie.
        </p>
      </div>
      {canOpen ? <OpenForm errors={openErrors} /> : null}
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
