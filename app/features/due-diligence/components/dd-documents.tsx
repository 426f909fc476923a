import type { ReactNode } from "react";
import { Download, Eye, FileText } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

/** A document answering a request, as one reader may open it (absent flags: download only). */
export type DdDocumentEntry = { id: string; name: string; withdrawn?: boolean; isPdf?: boolean; canDownload?: boolean };

/**
 * The documents card of a due-diligence request, for the founders' page and the participants' one:
 * the documents answering it with their links, what each reader may do to one (`actions`), and the
 * reader's own forms below (`children`).
 */
export function DdDocumentsCard({
  title,
  level,
  documents,
  empty,
  href,
  itemTestId,
  notice,
  actions,
  children,
}: {
  title: string;
  level: "h2" | "h4";
  documents: readonly DdDocumentEntry[];
  empty: string;
  href: (documentId: string, mode: "view" | "download") => string;
  itemTestId: string;
  notice?: ReactNode;
  actions?: (document: DdDocumentEntry) => ReactNode;
  children?: ReactNode;
}) {
  const Heading = level;
  return (
    <Card className="grid gap-3 p-4" aria-labelledby="dd-docs-title">
      <Heading id="dd-docs-title" className="font-semibold">
        {title}
      </Heading>
      {notice}
      {documents.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="grid gap-2" aria-label="Documents rattachés">
          {documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2" data-testid={itemTestId}>
              <span className="flex min-w-0 items-start gap-2">
                <FileText className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <span className="min-w-0 break-words">{d.name}</span>
                {d.withdrawn ? <Badge variant="outline">Retiré</Badge> : null}
              </span>
              <span className="flex flex-wrap gap-2">
                {!d.withdrawn && d.isPdf ? (
                  <Button asChild variant="outline" size="sm">
                    <a href={href(d.id, "view")} target="_blank" rel="noopener noreferrer">
                      <Eye aria-hidden="true" />
                      Consulter<span className="sr-only"> {d.name}</span>
                    </a>
                  </Button>
                ) : null}
                {!d.withdrawn && d.canDownload !== false ? (
                  <Button asChild variant="outline" size="sm">
                    <a href={href(d.id, "download")}>
                      <Download aria-hidden="true" />
                      Télécharger<span className="sr-only"> {d.name}</span>
                    </a>
                  </Button>
                ) : null}
                {actions?.(d)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {children}
    </Card>
  );
}
