import { Download, Eye, FolderOpen, Upload } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import {
  ACCEPTED_DOCUMENT_TYPES,
  DOCUMENT_MAX_MB,
  DOCUMENT_MESSAGES,
  DOCUMENT_ROOM_TEXTS,
  DOCUMENTS_PAGE_SIZE,
  documentsUrl,
  documentUrl,
  FILE_DOCUMENTS_MAX_MB,
  formatFileSize,
} from "~/features/collaboration/documents-rules";
import { shareDocument, withdrawDocument } from "~/features/collaboration/documents.server";
import { listDocuments } from "~/features/collaboration/document-list.server";
import { assertFileMember, fileActor } from "~/features/collaboration/file-access.server";
import { DocumentName, EarlierVersions, FolderSelect, NewVersionForm } from "~/features/collaboration/components/document-versions";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { VERSION_MESSAGES } from "~/features/collaboration/document-versions-rules";
import { shareDocumentVersion } from "~/features/collaboration/document-versions.server";
import { isUuid } from "~/lib/uuid";
import { formatDatePattern } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { pageHref, requestedPage } from "~/lib/paging";
import { Pagination } from "~/components/pagination";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/documents";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Documents du dossier"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return { room: await listDocuments({ profileId: profile.id }, params.fileId, requestedPage(request.url)) };
});

type ActionResult = { error: string; intent: "upload" | "withdraw" };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = fileActor(profile);
  // A non-member's post is a 404 before its body is read.
  await assertFileMember(actor, params.fileId);
  const back = documentsUrl(params.fileId);
  const multipart = /^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "");
  const intent: ActionResult["intent"] = multipart ? "upload" : "withdraw";
  try {
    if (multipart) {
      const form = await readMultipartWithLimit(request, DOCUMENT_MAX_MB);
      const file = form.get("file");
      if (!(file instanceof File) || (file.size === 0 && !file.name)) {
        return data({ error: DOCUMENT_MESSAGES.noFile, intent } satisfies ActionResult, { status: 400 });
      }
      const folder = String(form.get("folderId") ?? "");
      const documentId = String(form.get("documentId") ?? "");
      if ((folder !== "" && !isUuid(folder)) || (documentId !== "" && !isUuid(documentId))) {
        return data({ error: DOCUMENT_MESSAGES.badFolder, intent } satisfies ActionResult, { status: 400 });
      }
      const input = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
      if (documentId !== "") {
        const added = await shareDocumentVersion(user.id, params.fileId, documentId, input);
        return redirectWithToast(back, { type: "success", title: VERSION_MESSAGES.added, description: `${added.name} (${VERSION_MESSAGES.label(added.version)})` });
      }
      const shared = await shareDocument(actor, params.fileId, input, { folderId: folder === "" ? null : folder });
      return redirectWithToast(back, { type: "success", title: DOCUMENT_MESSAGES.shared, description: shared.name });
    }
    const form = await request.formData();
    if (form.get("intent") !== "withdraw") throw data({ message: "Action inconnue" }, { status: 400 });
    await withdrawDocument(actor, params.fileId, String(form.get("documentId") ?? ""));
    // A withdrawn document stays listed where it was: back to the same page.
    return redirectWithToast(pageHref(back, requestedPage(request.url)), { type: "success", title: DOCUMENT_MESSAGES.withdrawn });
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.code === "too-large" ? DOCUMENT_MESSAGES.tooLarge() : DOCUMENT_MESSAGES.uploadFailed;
      return data({ error: message, intent } satisfies ActionResult, { status: error.status });
    }
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "document action failed");
    const fallback = intent === "upload" ? DOCUMENT_MESSAGES.storeFailed : "Le document n’a pas pu être retiré. Veuillez réessayer.";
    return data({ error: expectedMessage(error, fallback), intent } satisfies ActionResult, { status: status ?? 500 });
  }
});

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

function UploadForm({ error, folders }: { error: string | null; folders: { id: string; name: string }[] }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post" && navigation.formEncType === "multipart/form-data";
  return (
    <Card className="p-4">
      <Form method="post" encType="multipart/form-data" className="grid gap-3" aria-labelledby="upload-title">
        <h4 id="upload-title" className="font-semibold">
          Partager un document
        </h4>
        {error ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        <div className="grid gap-2">
          <Label htmlFor="document-file">Fichier</Label>
          <Input id="document-file" name="file" type="file" required accept={ACCEPTED_DOCUMENT_TYPES} aria-describedby="document-file-hint" className="h-auto" />
          <p id="document-file-hint" className="text-sm text-muted-foreground">
            PDF, image JPEG ou PNG, classeur Excel (.xlsx) ou document Word (.docx)&nbsp;: {DOCUMENT_MAX_MB}&nbsp;Mo au plus par fichier,{" "}
            {FILE_DOCUMENTS_MAX_MB}&nbsp;Mo pour l’ensemble du dossier.
          </p>
        </div>
        {folders.length ? <FolderSelect id="document-folder" folders={folders} /> : null}
        <div>
          <Button type="submit" disabled={sending}>
            <Upload aria-hidden="true" />
            {sending ? "Envoi en cours..." : "Partager le document"}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function FileDocuments({ loaderData, actionData }: Route.ComponentProps) {
  const { room } = loaderData;
  const uploadError = actionData?.intent === "upload" ? actionData.error : null;
  const withdrawError = actionData?.intent === "withdraw" ? actionData.error : null;
  return (
    <section aria-labelledby="documents-title" className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h3 id="documents-title" className="text-lg font-semibold">
          Documents partagés
        </h3>
        <p className="text-sm text-muted-foreground">Visibles uniquement par vous et votre confrère. Chaque consultation est enregistrée.</p>
        <p className="text-sm text-muted-foreground" data-testid="documents-watermark-notice">
          {DOCUMENT_ROOM_TEXTS.watermarkNotice}
        </p>
        <p className="text-sm text-muted-foreground" data-testid="documents-usage">
          Espace utilisé&nbsp;: {formatFileSize(room.usedBytes)} sur {FILE_DOCUMENTS_MAX_MB}&nbsp;Mo
        </p>
        {room.pageCount > 1 ? (
          <p className="text-sm text-muted-foreground" data-testid="documents-count">
            {room.total} documents, {DOCUMENTS_PAGE_SIZE} par page
          </p>
        ) : null}
      </div>

      {withdrawError ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{withdrawError}</AlertDescription>
        </Alert>
      ) : null}

      {room.documents.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center">
          <FolderOpen className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">Aucun document partagé pour l’instant</p>
          <p className="text-sm text-muted-foreground">Les documents que vous et votre confrère partagez apparaîtront ici.</p>
        </Card>
      ) : (
        byFolder(room.documents).map((group) => (
        <div key={group.name ?? ""} className="grid gap-2">
        {group.name !== undefined ? <h4 className="text-sm font-semibold">{group.name ?? "Sans dossier"}</h4> : null}
        <ul className="divide-y rounded-lg border" aria-label={group.name ? `Documents\u00a0: ${group.name}` : "Documents du dossier"}>
          {group.documents.map((d) => (
            <li key={d.id} className="grid gap-2 p-4" data-testid="document-item">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="grid min-w-0 gap-1">
                  <DocumentName name={d.name} version={d.version} unread={d.unread} />
                  <p className="text-sm text-muted-foreground">
                    {d.typeLabel} · {formatFileSize(d.sizeBytes)} · Partagé par {d.byMe ? "vous" : d.uploaderName} le{" "}
                    <time dateTime={d.sharedAt}>{at(d.sharedAt)}</time>
                  </p>
                </div>
                {d.withdrawnAt ? (
                  // Still listed for both members; its content is gone (not downloadable).
                  <div className="grid justify-items-start gap-1 text-sm text-muted-foreground sm:justify-items-end" data-testid="document-withdrawn">
                    <Badge variant="outline">
                      <time dateTime={d.withdrawnAt}>{`Retiré le ${at(d.withdrawnAt)}`}</time>
                    </Badge>
                    <span>Retiré par {d.withdrawnBy} · contenu plus disponible</span>
                  </div>
                ) : (
                  <div className="flex flex-wrap items-center gap-2">
                    {d.isPdf ? (
                      <Button asChild variant="outline" size="sm">
                        <a href={documentUrl(room.fileId, d.id, "view")} target="_blank" rel="noopener noreferrer">
                          <Eye aria-hidden="true" />
                          Consulter<span className="sr-only"> {d.name}</span>
                        </a>
                      </Button>
                    ) : null}
                    <Button asChild variant="outline" size="sm">
                      <a href={documentUrl(room.fileId, d.id, "download")}>
                        <Download aria-hidden="true" />
                        Télécharger<span className="sr-only"> {d.name}</span>
                      </a>
                    </Button>
                    {d.byMe ? (
                      <Form
                        method="post"
                        onSubmit={(event) => {
                          if (!window.confirm(`Retirer «\u00a0${d.name}\u00a0»\u00a0? Votre confrère n’y aura plus accès.`)) event.preventDefault();
                        }}
                      >
                        <input type="hidden" name="intent" value="withdraw" />
                        <input type="hidden" name="documentId" value={d.id} />
                        <Button type="submit" variant="ghost" size="sm">
                          Retirer<span className="sr-only"> {d.name}</span>
                        </Button>
                      </Form>
                    ) : null}
                  </div>
                )}
              </div>
              <EarlierVersions name={d.name} versions={d.earlierVersions} href={(id, mode) => documentUrl(room.fileId, id, mode)} canDownload />
              {!d.withdrawnAt && !room.closed ? <NewVersionForm documentId={d.id} name={d.name} version={d.version} /> : null}
              {d.byMe ? (
                d.accesses.length ? (
                  <details className="text-sm">
                    <summary className="cursor-pointer text-muted-foreground">Consultations ({d.accessCount})</summary>
                    <ul className="mt-2 grid gap-1" aria-label={`Consultations de ${d.name}`}>
                      {d.accesses.map((a) => (
                        <li key={a.id}>
                          <time dateTime={a.at}>{a.label}</time>
                        </li>
                      ))}
                    </ul>
                    {d.accessCount > d.accesses.length ? (
                      <p className="mt-2 text-muted-foreground">
                        Les {d.accesses.length} dernières sont affichées{"\u202f"}; l’historique exporté en PDF (onglet Suivi) les contient toutes.
                      </p>
                    ) : null}
                  </details>
                ) : (
                  <p className="text-sm text-muted-foreground">Pas encore consulté.</p>
                )
              ) : null}
            </li>
          ))}
        </ul>
        </div>
        ))
      )}
      <Pagination page={room.page} pageCount={room.pageCount} href={(p) => pageHref(documentsUrl(room.fileId), p)} />

      {room.closed ? (
        <Alert>
          <AlertDescription>Ce dossier est clos&nbsp;: il n’est plus possible d’y partager de nouveaux documents.</AlertDescription>
        </Alert>
      ) : (
        <UploadForm error={uploadError} folders={room.folders} />
      )}
    </section>
  );
}

/** Documents by folder, in the order folders first appear; one unnamed group when no folder is used. */
function byFolder<D extends { folderName: string | null }>(documents: D[]): { name: string | null | undefined; documents: D[] }[] {
  if (documents.every((d) => d.folderName === null)) return [{ name: undefined, documents }];
  const groups = new Map<string | null, D[]>();
  for (const d of documents) groups.set(d.folderName, [...(groups.get(d.folderName) ?? []), d]);
  return [...groups].map(([name, docs]) => ({ name, documents: docs }));
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
