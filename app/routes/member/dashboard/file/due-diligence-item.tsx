import { parseWithZod } from "@conform-to/zod/v4";
import { Link2, Unlink } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { BackLink } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label, NativeSelect } from "~/components/ui/input";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { DOCUMENT_MAX_MB, DOCUMENT_MESSAGES, documentUrl } from "~/features/collaboration/documents-rules";
import { shareDocument } from "~/features/collaboration/documents.server";
import { fileActor, fileNotFound } from "~/features/collaboration/file-access.server";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { founderOrParticipant, readAsFounder } from "~/features/due-diligence/access.server";
import { DdIntentError, DdStatusBadge } from "~/features/due-diligence/components/dd-badges";
import { DdDocumentsCard } from "~/features/due-diligence/components/dd-documents";
import { DdAnswerFile, DdStatusForm } from "~/features/due-diligence/components/dd-forms";
import { DdAskForm, DdQuestionList } from "~/features/due-diligence/components/dd-questions";
import {
  DD_CATEGORY_LABELS,
  DD_LIMITS,
  DD_MESSAGES,
  ddItemPrimary,
  dueDiligenceItemUrl,
  dueDiligenceUrl,
  ownerLabel,
  type DdItemAction,
  type DdSide,
  type DdStatus,
} from "~/features/due-diligence/due-diligence-rules";
import {
  answerSchema,
  askSchema,
  documentRefSchema,
  questionRefSchema,
  statusSchema,
  updateItemSchema,
} from "~/features/due-diligence/due-diligence.schema";
import { answerQuestion, askQuestion, assertCanAnswerItem, closeQuestion, linkDocument, removeItem, setItemStatus, unlinkDocument, updateItem } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceItem } from "~/features/due-diligence/due-diligence-read.server";
import { runDdIntent, type DdIntent, type DdIntentResult } from "./due-diligence-intent.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/due-diligence-item";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Demande de diligence"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { user, profile } = await requireMember(request);
  const read = await readAsFounder(user.id, params.fileId, () => getDueDiligenceItem({ profileId: profile.id }, params.fileId, params.requestId));
  // A participant of the file reads the request on their own pages.
  if (read.participant) throw redirect(`${sharedFileUrl(params.fileId)}/diligences/${params.requestId}`);
  return { page: read.value };
});

function intentsFor(fileId: string, requestId: string): Record<string, DdIntent> {
  const parsed =
    <T,>(schema: Parameters<typeof parseWithZod>[1]["schema"], run: (actor: Parameters<DdIntent["run"]>[0], value: T) => Promise<unknown>) =>
    async (actor: Parameters<DdIntent["run"]>[0], form: FormData) => {
      const s = parseWithZod(form, { schema });
      if (s.status !== "success") return firstFormError(s.error);
      await run(actor, s.value as T);
      return null;
    };
  return {
    update: {
      success: DD_MESSAGES.updated,
      run: parsed<{ title: string; ownerId: string | null; dueDate: string | null }>(updateItemSchema, (a, v) => updateItem(a, fileId, requestId, v)),
    },
    status: { success: DD_MESSAGES.updated, run: parsed<{ status: DdStatus }>(statusSchema, (a, v) => setItemStatus(a, fileId, requestId, v.status)) },
    remove: { success: DD_MESSAGES.removed, run: async (a) => (await removeItem(a, fileId, requestId), null) },
    link: { success: DD_MESSAGES.linked, run: parsed<{ documentId: string }>(documentRefSchema, (a, v) => linkDocument(a, fileId, requestId, v.documentId)) },
    unlink: { success: DD_MESSAGES.unlinked, run: parsed<{ documentId: string }>(documentRefSchema, (a, v) => unlinkDocument(a, fileId, requestId, v.documentId)) },
    ask: {
      success: DD_MESSAGES.asked,
      run: parsed<{ documentId: string | null; visibility: DdSide; body: string }>(askSchema, (a, v) => askQuestion(a, fileId, requestId, v)),
    },
    answer: { success: DD_MESSAGES.answered, run: parsed<{ questionId: string; answer: string }>(answerSchema, (a, v) => answerQuestion(a, fileId, v.questionId, v.answer)) },
    "close-question": { success: DD_MESSAGES.questionClosedToast, run: parsed<{ questionId: string }>(questionRefSchema, (a, v) => closeQuestion(a, fileId, v.questionId)) },
  };
}

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = fileActor(profile);
  // A post from anyone but a founder (participants post on their own pages): 404 before its body is read.
  if ((await founderOrParticipant(user.id, params.fileId)) === "participant") fileNotFound();
  const back = dueDiligenceItemUrl(params.fileId, params.requestId);
  if (/^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "")) {
    // Uploading from the item: the document room's upload, then the link to the item.
    try {
      await assertCanAnswerItem(actor, params.fileId, params.requestId);
      const form = await readMultipartWithLimit(request, DOCUMENT_MAX_MB);
      const file = form.get("file");
      if (!(file instanceof File) || (file.size === 0 && !file.name)) return data({ intent: "upload", error: DOCUMENT_MESSAGES.noFile } satisfies DdIntentResult, { status: 400 });
      const shared = await shareDocument(actor, params.fileId, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
      await linkDocument(actor, params.fileId, params.requestId, shared.documentId);
      return redirectWithToast(back, { type: "success", title: DD_MESSAGES.linked, description: shared.name });
    } catch (error) {
      if (error instanceof UploadError) {
        const message = error.code === "too-large" ? DOCUMENT_MESSAGES.tooLarge() : DOCUMENT_MESSAGES.uploadFailed;
        return data({ intent: "upload", error: message } satisfies DdIntentResult, { status: error.status });
      }
      const status = expectedStatus(error);
      if (status === 404) throw error;
      if (status === null) logger.error({ err: error, requestId: context.requestId }, "due-diligence upload failed");
      return data({ intent: "upload", error: expectedMessage(error, DOCUMENT_MESSAGES.storeFailed) } satisfies DdIntentResult, { status: status ?? 500 });
    }
  }
  const form = await readForm(request);
  return runDdIntent(intentsFor(params.fileId, params.requestId), actor, form, {
    back: (intent) => (intent === "remove" ? dueDiligenceUrl(params.fileId) : intent === "ask" || intent === "answer" || intent === "close-question" ? `${back}#questions` : back),
    requestId: context.requestId,
  });
});

type Page = Route.ComponentProps["loaderData"]["page"];



function Details({ page, result }: { page: Page; result: DdIntentResult | undefined }) {
  const { item } = page;
  return (
    <Card className="grid gap-4 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline">{DD_CATEGORY_LABELS[item.category]}</Badge>
        <DdStatusBadge status={item.status} />
      </div>
      <DdIntentError result={result} intents={["status"]} />
      <DdStatusForm statuses={page.statuses} />
      {page.canEdit ? (
        <Form method="post" className="grid gap-3" aria-label="Modifier la demande">
          <DdIntentError result={result} intents={["update"]} />
          <input type="hidden" name="intent" value="update" />
          <div className="grid gap-2">
            <Label htmlFor="dd-item-title">Intitulé</Label>
            <Input id="dd-item-title" name="title" defaultValue={item.title} required maxLength={DD_LIMITS.title} />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="dd-owner">Responsable</Label>
              <NativeSelect id="dd-owner" name="ownerId" defaultValue={item.ownerId ?? ""}>
                <option value="">Sans responsable</option>
                {page.owners.map((p) => (
                  <option key={p.id} value={p.id}>
                    {ownerLabel(p)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="dd-due">Échéance</Label>
              <Input id="dd-due" name="dueDate" type="date" defaultValue={item.dueDate ?? ""} min="2000-01-01" max="2100-12-31" />
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="outline">Enregistrer</Button>
          </div>
        </Form>
      ) : (
        <dl className="grid gap-1 text-sm">
          <dt className="text-muted-foreground">Responsable</dt>
          <dd>{item.ownerName ?? "Sans responsable"}</dd>
        </dl>
      )}
    </Card>
  );
}

function Documents({ page, result, primary }: { page: Page; result: DdIntentResult | undefined; primary: DdItemAction | null }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formEncType === "multipart/form-data";
  return (
    <DdDocumentsCard
      title="Documents qui répondent à la demande"
      level="h4"
      documents={page.documents}
      empty="Aucun document rattaché pour l’instant."
      href={(id, mode) => documentUrl(page.fileId, id, mode)}
      itemTestId="dd-document"
      notice={<DdIntentError result={result} intents={["unlink"]} />}
      actions={
        page.canAnswer
          ? (d) => (
              <Form method="post">
                <input type="hidden" name="intent" value="unlink" />
                <input type="hidden" name="documentId" value={d.id} />
                <Button type="submit" variant="ghost" size="sm">
                  <Unlink aria-hidden="true" />
                  Détacher<span className="sr-only"> {d.name}</span>
                </Button>
              </Form>
            )
          : undefined
      }
    >
      {page.canAnswer ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Form method="post" className="grid content-start gap-2">
            <DdIntentError result={result} intents={["link"]} />
            <input type="hidden" name="intent" value="link" />
            {page.linkable.length ? (
              <>
                <Label htmlFor="dd-link">Rattacher un document du dossier</Label>
                <NativeSelect id="dd-link" name="documentId">
                  {page.linkable.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                </NativeSelect>
                <div>
                  <Button type="submit" variant="outline" size="sm">
                    <Link2 aria-hidden="true" />
                    Rattacher
                  </Button>
                </div>
              </>
            ) : (
              <p className="text-sm text-muted-foreground">Aucun autre document du dossier à rattacher.</p>
            )}
          </Form>
          <Form method="post" encType="multipart/form-data" className="grid content-start gap-2">
            <DdIntentError result={result} intents={["upload"]} />
            <DdAnswerFile label="Déposer un nouveau document" hint="Il est partagé dans les documents du dossier et rattaché à la demande." sending={sending} primary={primary === "answer-request"} />
          </Form>
        </div>
      ) : null}
    </DdDocumentsCard>
  );
}

function Questions({ page, result, primary }: { page: Page; result: DdIntentResult | undefined; primary: DdItemAction | null }) {
  return (
    <Card className="grid gap-3 p-4" aria-labelledby="dd-questions-title" id="questions">
      <h4 id="dd-questions-title" className="font-semibold">
        Questions
      </h4>
      <DdIntentError result={result} intents={["answer", "close-question"]} />
      <DdQuestionList
        empty="Aucune question sur cette demande ni sur ses documents."
        primary={primary === "answer-question"}
        questions={page.questions.map((q) => ({ ...q, onDocument: q.on.kind === "document" ? q.on.name : null }))}
      />
      {page.closed ? null : (
        <DdAskForm
          visibilities={page.visibilities}
          documents={page.documents.filter((d) => !d.withdrawn)}
          error={<DdIntentError result={result} intents={["ask"]} />}
          primary={primary === "ask"}
        />
      )}
    </Card>
  );
}

export default function DueDiligenceItem({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = loaderData;
  const result = actionData as DdIntentResult | undefined;
  const primary = ddItemPrimary({ questionToAnswer: page.questions.some((q) => q.canAnswer), canAnswerRequest: page.canAnswer, canAsk: !page.closed });
  return (
    <section aria-labelledby="dd-item-title-heading" className="grid grid-cols-1 gap-4">
      <BackLink to={dueDiligenceUrl(page.fileId)} label="Toutes les diligences" />
      <h3 id="dd-item-title-heading" className="break-words text-lg font-semibold">
        {page.item.title}
      </h3>
      {page.closed ? (
        <Alert>
          <AlertDescription>{DD_MESSAGES.closed}</AlertDescription>
        </Alert>
      ) : null}
      <Details page={page} result={result} />
      <Documents page={page} result={result} primary={primary} />
      <Questions page={page} result={result} primary={primary} />
      {page.canEdit ? (
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(`Supprimer la demande «\u00a0${page.item.title}\u00a0» et ses questions\u00a0? Les documents restent dans le dossier.`)) event.preventDefault();
          }}
        >
          <DdIntentError result={result} intents={["remove"]} />
          <input type="hidden" name="intent" value="remove" />
          <Button type="submit" variant="ghost" size="sm">
            Supprimer la demande
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
