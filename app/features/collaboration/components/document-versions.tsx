// The pieces every document list shares: a document's name line (version, « Nouveau »), the folder
// chosen when sharing, the earlier versions of a document, and the form that adds a new version.
import { FileText, History, Upload } from "lucide-react";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input, Label, NativeSelect } from "~/components/ui/input";
import { ACCEPTED_DOCUMENT_TYPES, formatFileSize } from "~/features/collaboration/documents-rules";
import { formatDatePattern } from "~/lib/format";

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

/** A document's name with its version past the first and « Nouveau » until its reader opens it. */
export function DocumentName({ name, version, unread }: { name: string; version: number; unread: boolean }) {
  return (
    <p className="flex min-w-0 flex-wrap items-start gap-2 font-medium">
      <FileText className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="min-w-0 break-words">{name}</span>
      {version > 1 ? <Badge variant="outline">{`Version\u00a0${version}`}</Badge> : null}
      {unread ? <Badge data-testid="document-unread">Nouveau</Badge> : null}
    </p>
  );
}

/** The folders one may deposit into; the empty value is the general folder. */
export function FolderSelect({ id, folders, generalAllowed = true }: { id: string; folders: { id: string; name: string }[]; generalAllowed?: boolean }) {
  return (
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={id}>Dossier de documents</Label>
      <NativeSelect id={id} name="folderId" defaultValue={generalAllowed ? "" : folders[0]?.id} data-testid="folder-select">
        {generalAllowed ? <option value="">Général</option> : null}
        {folders.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

export type EarlierVersion = { id: string; version: number; name: string; sharedAt: string; sizeBytes: number; isPdf: boolean; withdrawn: boolean };

/** The earlier versions of a document, each opened as the reader's rights allow. */
export function EarlierVersions({
  name,
  versions,
  href,
  canDownload,
}: {
  name: string;
  versions: EarlierVersion[];
  href: (id: string, mode: "view" | "download") => string;
  canDownload: boolean;
}) {
  if (versions.length === 0) return null;
  return (
    <details className="text-sm" data-testid="document-versions">
      <summary className="flex cursor-pointer items-center gap-1 text-muted-foreground">
        <History className="h-4 w-4" aria-hidden="true" />
        Versions précédentes ({versions.length})
      </summary>
      <ul className="mt-2 grid gap-1" aria-label={`Versions précédentes de ${name}`}>
        {versions.map((v) => (
          <li key={v.id} className="flex flex-wrap items-center gap-2" data-testid="document-version">
            <span className="min-w-0 break-words">
              Version&nbsp;{v.version} · {v.name} · {formatFileSize(v.sizeBytes)} · <time dateTime={v.sharedAt}>{at(v.sharedAt)}</time>
            </span>
            {v.withdrawn ? (
              <span className="text-muted-foreground">retirée</span>
            ) : (
              <>
                {v.isPdf ? (
                  <a className="underline" href={href(v.id, "view")} target="_blank" rel="noopener noreferrer">
                    Consulter<span className="sr-only"> la version {v.version}</span>
                  </a>
                ) : null}
                {canDownload ? (
                  <a className="underline" href={href(v.id, "download")}>
                    Télécharger<span className="sr-only"> la version {v.version}</span>
                  </a>
                ) : null}
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Adds version n+1 of a document (same folder). */
export function NewVersionForm({ documentId, name, version }: { documentId: string; name: string; version: number }) {
  const inputId = `version-${documentId}`;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted-foreground">Déposer une nouvelle version</summary>
      <Form method="post" encType="multipart/form-data" className="mt-2 flex flex-wrap items-end gap-2" aria-label={`Nouvelle version de ${name}`}>
        <input type="hidden" name="documentId" value={documentId} />
        <div className="grid min-w-0 gap-1">
          <Label htmlFor={inputId}>Version&nbsp;{version + 1}</Label>
          <Input id={inputId} name="file" type="file" required accept={ACCEPTED_DOCUMENT_TYPES} className="h-auto" />
        </div>
        <Button type="submit" size="sm" variant="outline">
          <Upload aria-hidden="true" />
          Déposer la version
        </Button>
      </Form>
    </details>
  );
}
