// /dossiers-partages/:fileId: a collaboration file as a participant (member or guest) reads it.
// First the confidentiality undertaking; then the deal's clients, the folders
// their side sees and the documents, opened and added as their rights allow.
import { Download, Eye, ShieldCheck, Upload } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { PageError } from "~/components/states";
import { AppPage, PageHeader } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import { fileUrl, isClosed, STAGE_LABELS } from "~/features/collaboration/collaboration-rules";
import { mayReach, REACH_MESSAGES } from "~/features/due-diligence/participant-reach-rules";
import { DdProgressBar } from "~/features/due-diligence/components/dd-badges";
import { getParticipantProgress } from "~/features/due-diligence/participant.server";
import { DocumentName, EarlierVersions, FolderSelect, NewVersionForm } from "~/features/collaboration/components/document-versions";
import { VERSION_MESSAGES } from "~/features/collaboration/document-versions-rules";
import { shareDocumentVersion } from "~/features/collaboration/document-versions.server";
import { ACCEPTED_DOCUMENT_TYPES, DOCUMENT_MAX_MB, DOCUMENT_MESSAGES, DOCUMENTS_PAGE_SIZE, formatFileSize } from "~/features/collaboration/documents-rules";
import { shareParticipantDocument, sharedFileView } from "~/features/collaboration/participant-documents.server";
import { PARTICIPANT_MESSAGES, ROLE_LABELS, SIDE_LABELS, sharedFileUrl, VISIBILITY_LABELS } from "~/features/collaboration/participant-rules";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { signParticipantUndertaking } from "~/features/collaboration/participant-joining.server";
import { UNDERTAKING_TEXT } from "~/features/connections/connection-rules";
import { isUuid } from "~/lib/uuid";
import { pageHref, requestedPage } from "~/lib/paging";
import { Pagination } from "~/components/pagination";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { formatDatePattern } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/file";

export const meta: Route.MetaFunction = () => [{ title: "Dossier partagé" }, { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const access = await requireFileParticipant(db, user.id, params.fileId, { beforeUndertaking: true });
  // A founding member reads the file on its own pages.
  if (access.kind === "founder") throw redirect(fileUrl(access.fileId));
  if (!access.undertakingSigned) {
    return { undertaking: { reference: access.reference, text: UNDERTAKING_TEXT }, view: null };
  }
  const view = await sharedFileView(access, requestedPage(request.url));
  const closed = isClosed(view.access.stage);
  return {
    undertaking: null,
    view: {
      fileId: view.access.fileId,
      reference: view.access.reference,
      roleLabel: ROLE_LABELS[view.access.role],
      sideLabel: SIDE_LABELS[view.access.side],
      clients: view.clients,
      folders: view.folders,
      page: view.page,
      pageCount: view.pageCount,
      total: view.total,
      stageLabel: STAGE_LABELS[view.access.stage],
      progress: await getParticipantProgress(view.access),
      canReadList: mayReach(view.access, "dd-read", closed),
      archive: view.access.stage === "concluded" && mayReach(view.access, "archive", closed),
    },
  };
});

type ActionResult = { error: string };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, { guests: true });
  // Not a participant: a 404 before the body is read.
  await requireFileParticipant(db, user.id, params.fileId, { beforeUndertaking: true });
  const back = sharedFileUrl(params.fileId);
  const multipart = /^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "");
  try {
    if (multipart) {
      const form = await readMultipartWithLimit(request, DOCUMENT_MAX_MB);
      const file = form.get("file");
      const folder = String(form.get("folderId") ?? "");
      if (folder !== "" && !isUuid(folder)) return data({ error: DOCUMENT_MESSAGES.badFolder } satisfies ActionResult, { status: 400 });
      if (!(file instanceof File) || (file.size === 0 && !file.name)) return data({ error: DOCUMENT_MESSAGES.noFile } satisfies ActionResult, { status: 400 });
      const documentId = String(form.get("documentId") ?? "");
      if (documentId !== "" && !isUuid(documentId)) return data({ error: VERSION_MESSAGES["not-found"] } satisfies ActionResult, { status: 400 });
      const input = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
      if (documentId !== "") {
        const added = await shareDocumentVersion(user.id, params.fileId, documentId, input);
        return redirectWithToast(back, { type: "success", title: VERSION_MESSAGES.added, description: `${added.name} (${VERSION_MESSAGES.label(added.version)})` });
      }
      const shared = await shareParticipantDocument(user.id, params.fileId, folder === "" ? null : folder, input);
      return redirectWithToast(back, { type: "success", title: DOCUMENT_MESSAGES.shared, description: shared.name });
    }
    const form = await readForm(request);
    if (form.get("intent") !== "undertaking") throw data({ message: "Action inconnue" }, { status: 400 });
    await signParticipantUndertaking(user.id, params.fileId);
    return redirectWithToast(back, { type: "success", title: PARTICIPANT_MESSAGES.undertakingSigned });
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.code === "too-large" ? DOCUMENT_MESSAGES.tooLarge() : DOCUMENT_MESSAGES.uploadFailed;
      return data({ error: message } satisfies ActionResult, { status: error.status });
    }
    const status = expectedStatus(error);
    // An upload's folder or document not found is said on the page, which keeps the form; the file
    // itself was checked before the body was read.
    if (!multipart && (status === 404 || status === 400)) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "shared file action failed");
    return data({ error: expectedMessage(error, "L’opération n’a pas pu aboutir.") } satisfies ActionResult, { status: status ?? 500 });
  }
});

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

function documentHref(fileId: string, documentId: string, mode: "view" | "download") {
  return `${sharedFileUrl(fileId)}/documents/${documentId}?mode=${mode}`;
}

export default function SharedFile({ loaderData, actionData }: Route.ComponentProps) {
  const { undertaking, view } = loaderData;
  const error = actionData?.error ?? null;
  if (undertaking) {
    return (
      <AppPage wide={false}>
        <PageHeader title={`Dossier ${undertaking.reference}`} />
        <Card className="grid gap-4 p-4 sm:p-6">
          <h2 className="flex items-center gap-2 font-semibold">
            <ShieldCheck className="h-5 w-5 text-muted-foreground" aria-hidden="true" />
            Engagement de confidentialité
          </h2>
          <p className="text-sm text-muted-foreground">Signez cet engagement pour accéder au dossier et à l’identité des clients de l’opération.</p>
          <blockquote className="border-l-4 pl-3" data-testid="undertaking-text">
            {undertaking.text}
          </blockquote>
          {error ? (
            <Alert variant="destructive" role="alert">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="undertaking" />
            <Button type="submit">Je m’engage</Button>
          </Form>
        </Card>
      </AppPage>
    );
  }
  if (!view) return null;
  const depositFolders = view.folders.filter((f) => f.canUpload);
  return (
    <AppPage>
      <PageHeader title={`Dossier ${view.reference}`} description={`${view.roleLabel} · ${view.sideLabel}`} />
      <Card className="grid gap-3 p-4" data-testid="shared-overview">
        <h2 className="font-semibold">Suivi du dossier</h2>
        <p className="text-sm">
          Étape&nbsp;: <span className="font-medium">{view.stageLabel}</span>
        </p>
        {view.canReadList ? (
          <div className="grid gap-2">
            {view.progress ? <DdProgressBar {...view.progress} /> : <p className="text-sm text-muted-foreground">{REACH_MESSAGES.noList}</p>}
            <p className="text-sm">
              <Link className="text-primary underline" to={`${sharedFileUrl(view.fileId)}/diligences`}>
                Ouvrir la liste de diligences
              </Link>
            </p>
          </div>
        ) : null}
        {view.archive ? (
          <p className="text-sm">
            <a className="text-primary underline" href={`${sharedFileUrl(view.fileId)}/archive`}>
              Télécharger l’archive de clôture (selon vos droits)
            </a>
          </p>
        ) : null}
        <p className="text-sm text-muted-foreground" data-testid="shared-agreement-note">
          {REACH_MESSAGES.agreementFounders}
        </p>
      </Card>
      {view.clients.length ? (
        <Card className="grid gap-2 p-4" data-testid="shared-clients">
          <h2 className="font-semibold">Clients de l’opération</h2>
          <dl className="grid gap-2 text-sm sm:grid-cols-2">
            {view.clients.map((c) => (
              <div key={c.side} className="min-w-0">
                <dt className="text-muted-foreground">{c.side === "cedant" ? "Cédant" : "Acquéreur"}</dt>
                <dd className="break-words font-medium">{c.name}</dd>
                <dd className="break-words">{c.address}</dd>
              </div>
            ))}
          </dl>
        </Card>
      ) : null}
      {error ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <p className="text-sm text-muted-foreground">Chaque consultation est enregistrée et chaque PDF porte votre nom et la date.</p>
      {view.folders.length === 0 ? (
        <Alert>
          <AlertTitle>Aucun dossier de documents</AlertTitle>
          <AlertDescription>Vos droits ne vous donnent accès à aucun document pour l’instant.</AlertDescription>
        </Alert>
      ) : null}
      {view.pageCount > 1 ? (
        <p className="text-sm text-muted-foreground" data-testid="shared-documents-count">
          {view.total} documents, {DOCUMENTS_PAGE_SIZE} par page
        </p>
      ) : null}
      {/* A folder whose documents are all on other pages is left out of this one. */}
      {view.folders.filter((f) => f.documents.length > 0 || (f.total === 0 && view.page === 1)).map((folder) => (
        <section key={folder.id ?? "general"} className="grid gap-2 rounded-lg border p-4" aria-label={`Dossier ${folder.name}`} data-testid="shared-folder">
          <h2 className="break-words font-semibold">
            {folder.name}{" "}
            <span className="text-sm font-normal text-muted-foreground">
              · {VISIBILITY_LABELS[folder.visibility]}
              {view.pageCount > 1 ? ` · ${folder.total} document${folder.total > 1 ? "s" : ""} en tout` : null}
            </span>
          </h2>
          {folder.documents.length === 0 ? <p className="text-sm text-muted-foreground">Aucun document.</p> : null}
          <ul className="grid gap-2">
            {folder.documents.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2" data-testid="shared-document">
                <div className="grid min-w-0 gap-1">
                  <DocumentName name={d.name} version={d.version} unread={d.unread} />
                  <p className="text-sm text-muted-foreground">
                    {d.typeLabel} · {formatFileSize(d.sizeBytes)} · {d.uploaderName} · <time dateTime={d.sharedAt}>{at(d.sharedAt)}</time>
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {d.isPdf ? (
                    <Button asChild variant="outline" size="sm">
                      <a href={documentHref(view.fileId, d.id, "view")} target="_blank" rel="noopener noreferrer">
                        <Eye aria-hidden="true" />
                        Consulter<span className="sr-only"> {d.name}</span>
                      </a>
                    </Button>
                  ) : null}
                  {folder.canDownload ? (
                    <Button asChild variant="outline" size="sm">
                      <a href={documentHref(view.fileId, d.id, "download")}>
                        <Download aria-hidden="true" />
                        Télécharger<span className="sr-only"> {d.name}</span>
                      </a>
                    </Button>
                  ) : null}
                </div>
                <div className="grid w-full gap-1">
                  <EarlierVersions name={d.name} versions={d.earlierVersions} href={(id, mode) => documentHref(view.fileId, id, mode)} canDownload={folder.canDownload} />
                  {folder.canUpload ? <NewVersionForm documentId={d.id} name={d.name} version={d.version} /> : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <Pagination page={view.page} pageCount={view.pageCount} href={(p) => pageHref(sharedFileUrl(view.fileId), p)} />
      {/* The deposit form below the documents, as on the founders' page: the list is what one comes to read. */}
      {depositFolders.length ? (
        <Card className="p-4">
          <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2" aria-label="Déposer un document">
            <FolderSelect
              id="shared-folder"
              folders={depositFolders.filter((f) => f.id !== null).map((f) => ({ id: f.id ?? "", name: f.name }))}
              generalAllowed={depositFolders.some((f) => f.id === null)}
            />
            <div className="grid min-w-0 gap-1">
              <Label htmlFor="shared-file">Déposer un document</Label>
              <Input id="shared-file" name="file" type="file" required accept={ACCEPTED_DOCUMENT_TYPES} className="h-auto" />
            </div>
            <Button type="submit" size="sm">
              <Upload aria-hidden="true" />
              Déposer
            </Button>
          </Form>
        </Card>
      ) : null}
    </AppPage>
  );
}

export function ErrorBoundary() {
  return <PageError title="Dossier introuvable" message="Ce dossier n’existe pas ou vous n’y avez pas accès." />;
}
