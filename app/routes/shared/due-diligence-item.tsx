// /dossiers-partages/:fileId/diligences/:requestId: one request as a participant reaches it
// — its documents of the folders their side sees, their side's questions; answering
// with a document into a folder they may deposit into, moving its status, asking and answering.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { PageError } from "~/components/states";
import { AppPage, PageHeader } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { FolderSelect } from "~/features/collaboration/components/document-versions";
import { DOCUMENT_MAX_MB, DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { DdDocumentsCard } from "~/features/due-diligence/components/dd-documents";
import { DdAnswerFile, DdStatusForm } from "~/features/due-diligence/components/dd-forms";
import { DdStatusBadge } from "~/features/due-diligence/components/dd-badges";
import { DdAskForm, DdQuestionList } from "~/features/due-diligence/components/dd-questions";
import { DD_MESSAGES, ddItemPrimary, dueDiligenceItemUrl } from "~/features/due-diligence/due-diligence-rules";
import { answerSchema, askSchema, statusSchema } from "~/features/due-diligence/due-diligence.schema";
import {
  getParticipantDueDiligenceItem,
  participantAnswer,
  participantAsk,
  participantProvide,
  participantSetStatus,
} from "~/features/due-diligence/participant.server";
import { isUuid } from "~/lib/uuid";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { logger } from "~/lib/logger.server";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/due-diligence-item";

export const meta: Route.MetaFunction = () => [{ title: "Demande de diligence" }, { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  // A founding member reads the request on the file's own pages.
  if ((await requireFileParticipant(db, user.id, params.fileId)).kind === "founder") throw redirect(dueDiligenceItemUrl(params.fileId, params.requestId));
  return { page: await getParticipantDueDiligenceItem(user.id, params.fileId, params.requestId) };
});

type ActionResult = { intent: string; error: string };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, { guests: true });
  // Not a participant (or before the undertaking): refused before the body is read.
  const acting = await requireFileParticipant(db, user.id, params.fileId);
  if (acting.kind === "founder") throw data({ message: "Action inconnue" }, { status: 400 });
  const back = `${sharedFileUrl(params.fileId)}/diligences/${params.requestId}`;
  const multipart = /^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "");
  let intent = multipart ? "provide" : "";
  try {
    if (multipart) {
      const form = await readMultipartWithLimit(request, DOCUMENT_MAX_MB);
      const file = form.get("file");
      const folder = String(form.get("folderId") ?? "");
      if (folder !== "" && !isUuid(folder)) return data({ intent, error: DOCUMENT_MESSAGES.badFolder } satisfies ActionResult, { status: 400 });
      if (!(file instanceof File) || (file.size === 0 && !file.name)) return data({ intent, error: DOCUMENT_MESSAGES.noFile } satisfies ActionResult, { status: 400 });
      const shared = await participantProvide(user.id, params.fileId, params.requestId, folder === "" ? null : folder, {
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
      return redirectWithToast(back, { type: "success", title: DD_MESSAGES.linked, description: shared.name });
    }
    const form = await readForm(request);
    intent = String(form.get("intent") ?? "");
    if (intent === "ask") {
      const s = parseWithZod(form, { schema: askSchema });
      if (s.status !== "success") return data({ intent, error: firstFormError(s.error, DD_MESSAGES.bodyRequired) } satisfies ActionResult, { status: 400 });
      await participantAsk(user.id, params.fileId, params.requestId, { visibility: s.value.visibility, body: s.value.body });
      return redirectWithToast(back, { type: "success", title: DD_MESSAGES.asked });
    }
    if (intent === "answer") {
      const s = parseWithZod(form, { schema: answerSchema });
      if (s.status !== "success") return data({ intent, error: firstFormError(s.error, DD_MESSAGES.answerRequired) } satisfies ActionResult, { status: 400 });
      await participantAnswer(user.id, params.fileId, s.value.questionId, s.value.answer);
      return redirectWithToast(back, { type: "success", title: DD_MESSAGES.answered });
    }
    if (intent === "status") {
      const s = parseWithZod(form, { schema: statusSchema });
      if (s.status !== "success") return data({ intent, error: firstFormError(s.error, DD_MESSAGES.forbiddenStatus) } satisfies ActionResult, { status: 400 });
      await participantSetStatus(user.id, params.fileId, params.requestId, s.value.status);
      return redirectWithToast(back, { type: "success", title: DD_MESSAGES.updated });
    }
    throw data({ message: "Action inconnue" }, { status: 400 });
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.code === "too-large" ? DOCUMENT_MESSAGES.tooLarge() : DOCUMENT_MESSAGES.uploadFailed;
      return data({ intent, error: message } satisfies ActionResult, { status: error.status });
    }
    const status = expectedStatus(error);
    // An upload's folder not found is said on the page, which keeps the form.
    if ((status === 404 && !multipart) || (status === 400 && !multipart && !["ask", "answer", "status"].includes(intent))) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId, intent }, "shared due-diligence action failed");
    return data({ intent, error: expectedMessage(error, "L’opération n’a pas pu aboutir. Veuillez réessayer dans un instant.") } satisfies ActionResult, { status: status ?? 500 });
  }
});

function documentHref(fileId: string, documentId: string, mode: "view" | "download") {
  return `${sharedFileUrl(fileId)}/documents/${documentId}?mode=${mode}`;
}

export default function SharedDueDiligenceItem({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = loaderData;
  const error = actionData?.error ?? null;
  const primary = ddItemPrimary({ questionToAnswer: page.questions.some((q) => q.canAnswer), canAnswerRequest: page.depositFolders.length > 0, canAsk: page.canAsk });
  return (
    <AppPage>
      <PageHeader
        back={{ to: `${sharedFileUrl(page.fileId)}/diligences`, label: `Diligences du dossier ${page.reference}` }}
        title={<span className="break-words">{page.item.title}</span>}
      >
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <DdStatusBadge status={page.item.status} />
          <span data-testid="shared-dd-owner">{page.item.ownerName ? `Responsable\u00a0: ${page.item.ownerName}` : "Sans responsable"}</span>
        </div>
      </PageHeader>
      {error ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}

      <DdDocumentsCard
        title="Documents"
        level="h2"
        documents={page.documents}
        empty="Aucun document visible de votre côté."
        href={(id, mode) => documentHref(page.fileId, id, mode)}
        itemTestId="shared-dd-document"
      >
        {page.depositFolders.length ? (
          <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2" aria-label="Répondre avec un document">
            <FolderSelect
              id="dd-folder"
              folders={page.depositFolders.filter((f) => f.id !== null).map((f) => ({ id: f.id ?? "", name: f.name }))}
              generalAllowed={page.depositFolders.some((f) => f.id === null)}
            />
            <DdAnswerFile label="Document qui répond à la demande" primary={primary === "answer-request"} />
          </Form>
        ) : null}
        <DdStatusForm statuses={page.statuses} size="sm" />
      </DdDocumentsCard>

      <Card className="grid gap-3 p-4">
        <h2 className="font-semibold">Questions</h2>
        <DdQuestionList
          empty="Aucune question visible de votre côté."
          primary={primary === "answer-question"}
          // Participants neither close questions nor see their own marked: the founders' page does.
          questions={page.questions.map((q) => ({ ...q, askedByMe: false, answeredAt: null, canClose: false }))}
        />
        {page.canAsk ? <DdAskForm visibilities={page.visibilities} heading="h3" primary={primary === "ask"} /> : null}
      </Card>
    </AppPage>
  );
}

export function ErrorBoundary() {
  return <PageError title="Demande introuvable" message="Cette demande n’existe pas, ou vous n’y avez pas accès." />;
}
