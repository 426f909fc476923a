import { Download } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatDateTime } from "~/lib/format";
import { pageHref } from "~/lib/paging";
import { cn } from "~/lib/utils";
import type { TimelineEntry } from "../file-view.server";
import { TIMELINE_GROUPS, timelineGroup, type TimelineGroup } from "../timeline";

/** The undertakings' sealed PDF sits beside the evidence export. */
const undertakingsUrl = (evidence: string) => `${evidence.replace(/\/historique$/, "")}/engagements`;

/** A page of the timeline read on the server: the filter (`?historique=`) and the page (`?page=`) are in the URL. */
export type TimelinePaging = { page: number; pageCount: number; total: number; group: TimelineGroup | null; groups: TimelineGroup[]; path: string };

const chip = (active: boolean) =>
  cn(
    "inline-flex min-h-8 items-center rounded-full border px-3 text-caption focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
    active ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-muted",
  );

/**
 * The file's record, newest first, filtered by kind: every step, dated and attributed. Given
 * `paging`, `entries` is one page the server read and the filters ask the server; otherwise it
 * filters the entries it holds.
 */
export function FileTimeline({ entries, paging, exportUrl, archiveUrl }: { entries: TimelineEntry[]; paging?: TimelinePaging; exportUrl?: string; archiveUrl?: string }) {
  const [localGroup, setGroup] = useState<TimelineGroup | null>(null);
  const group = paging ? paging.group : localGroup;
  const present = paging ? new Set(paging.groups) : new Set(entries.map((e) => timelineGroup(e.kind)));
  const filters = (Object.keys(TIMELINE_GROUPS) as TimelineGroup[]).filter((g) => present.has(g));
  const shown = entries.filter((e) => paging || group === null || timelineGroup(e.kind) === group).reverse();
  const href = (g: TimelineGroup | null, page = 1) => pageHref(paging?.path ?? "", page, g ? `historique=${g}` : "");
  return (
    <Card className="grid gap-3 p-4" aria-labelledby="timeline-title">
      <h3 id="timeline-title" className="text-lg font-semibold">
        Historique
      </h3>
      <p className="text-xs text-muted-foreground">Chaque étape est datée et attribuée&nbsp;; cet historique ne peut pas être modifié.</p>
      {paging && filters.length > 1 ? (
        // A GET form: the filter is read on the server (page 1 of that group), with or without JavaScript.
        <Form method="get" preventScrollReset>
          <div className="flex flex-wrap gap-1.5" role="group" aria-label="Filtrer l’historique">
            {[null, ...filters].map((g) => (
              <button key={g ?? "all"} type="submit" name={g ? "historique" : undefined} value={g ?? undefined} aria-pressed={group === g} className={chip(group === g)}>
                {g === null ? "Tout" : TIMELINE_GROUPS[g]}
              </button>
            ))}
          </div>
        </Form>
      ) : null}
      {!paging && filters.length > 1 ? (
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Filtrer l’historique">
          {[null, ...filters].map((g) => (
            <button
              key={g ?? "all"}
              type="button"
              aria-pressed={group === g}
              onClick={() => setGroup(g)}
              className={chip(group === g)}
            >
              {g === null ? "Tout" : TIMELINE_GROUPS[g]}
            </button>
          ))}
        </div>
      ) : null}
      <ol className="grid gap-3 border-l pl-4" aria-label="Historique du dossier">
        {shown.map((e) => (
          <li key={e.id} className="relative text-sm">
            <span className="absolute -left-[21px] top-1.5 h-2.5 w-2.5 rounded-full bg-primary" aria-hidden="true" />
            <p className="break-words font-medium">{e.label}</p>
            {e.detail ? <p className="text-muted-foreground [overflow-wrap:anywhere]">{e.detail}</p> : null}
            <p className="text-xs text-muted-foreground">
              <time dateTime={e.at}>{formatDateTime(e.at)}</time>
              {e.actorName ? ` · ${e.byMe ? "vous" : e.actorName}` : ""}
            </p>
          </li>
        ))}
      </ol>
      {paging ? <Pagination page={paging.page} pageCount={paging.pageCount} href={(p) => href(paging.group, p)} /> : null}
      {exportUrl ? (
        <div className="grid gap-1 border-t pt-3">
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={exportUrl} download data-testid="evidence-export">
                <Download aria-hidden="true" />
                Exporter l’historique (PDF)
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={undertakingsUrl(exportUrl)} download data-testid="undertakings-export">
                <Download aria-hidden="true" />
                Engagements de confidentialité (PDF)
              </a>
            </Button>
            {archiveUrl ? (
              <Button asChild variant="outline" size="sm">
                <a href={archiveUrl} download data-testid="closing-archive">
                  <Download aria-hidden="true" />
                  Archive de clôture (ZIP)
                </a>
              </Button>
            ) : null}
          </div>
          <p className="text-xs text-muted-foreground">
            Un PDF daté de tout l’historique (étapes, engagements, documents, convention et signatures), à conserver comme preuve.
            Son empreinte SHA-256 s’inscrit dans l’historique ci-dessus. Ces PDF portent le cachet électronique horodaté de la
            plateforme, que tout lecteur PDF vérifie.
            {archiveUrl ? " L’archive de clôture réunit documents, conventions, engagements et historique, avec un manifeste des empreintes SHA-256 scellé." : null}
          </p>
        </div>
      ) : null}
    </Card>
  );
}
