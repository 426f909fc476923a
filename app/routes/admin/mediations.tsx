// /admin/mediations: the team's queue of mediations, filtered by status; the
// active ones first, the longest waiting on top.
import { Scale } from "lucide-react";
import { Link } from "react-router";
import { Pagination } from "~/components/pagination";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { queryString } from "~/features/admin/admin.schema";
import { MediationStatusBadge } from "~/features/mediation/components/mediation-thread";
import { listMediationQueue } from "~/features/mediation/mediation-admin.server";
import { adminMediationUrl, MEDIATION_STATUS_LABELS, MEDIATION_STATUSES, type MediationStatus } from "~/features/mediation/mediation-rules";
import { formatAdminDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/mediations";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Médiations"), { name: "robots", content: "noindex" }];

function parseQuery(params: URLSearchParams): { status: MediationStatus | null; page: number } {
  const statut = params.get("statut");
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    status: MEDIATION_STATUSES.find((s) => s === statut) ?? null,
    page: Number.isSafeInteger(page) && page > 0 && page < 100_000 ? page : 1,
  };
}

const listHref = (status: MediationStatus | null, page = 1) => `/admin/mediations${queryString({ statut: status, page })}`;

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminAccess(request);
  const query = parseQuery(new URL(request.url).searchParams);
  try {
    return { query, queue: await listMediationQueue(query), failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin mediations load failed");
    return { query, queue: null, failed: true };
  }
});

export default function MediationsTab({ loaderData }: Route.ComponentProps) {
  const { query, queue } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div>
        <h2 id="tab-title" className="text-xl font-semibold">
          Médiations
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Demandes des membres sur un dossier de rapprochement&nbsp;: prise en charge, échanges avec les deux membres et décision écrite.
        </p>
      </div>
      <nav aria-label="Filtrer par statut" className="flex flex-wrap gap-2 text-sm">
        {[null, ...MEDIATION_STATUSES].map((s) => {
          const current = s === query.status;
          const count = queue ? (s ? queue.counts[s] : Object.values(queue.counts).reduce((a, b) => a + b, 0)) : null;
          return (
            <Link
              key={s ?? "all"}
              to={listHref(s)}
              aria-current={current ? "page" : undefined}
              className={`rounded-full border px-3 py-1 ${current ? "border-primary bg-primary text-primary-foreground" : "hover:bg-muted"}`}
            >
              {s ? MEDIATION_STATUS_LABELS[s] : "Toutes"}
              {count !== null ? ` (${count})` : ""}
            </Link>
          );
        })}
      </nav>
      {!queue ? (
        <Alert variant="destructive">
          <AlertDescription>Les médiations n’ont pas pu être chargées. Veuillez réessayer.</AlertDescription>
        </Alert>
      ) : queue.rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border p-8 text-center text-muted-foreground">
          <Scale className="h-8 w-8" aria-hidden="true" />
          <p>{query.status ? `Aucune médiation «\u00a0${MEDIATION_STATUS_LABELS[query.status].toLowerCase()}\u00a0».` : "Aucune demande de médiation."}</p>
        </div>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Médiations">
          {queue.rows.map((r) => (
            <li key={r.id} className="grid gap-1 p-4" data-testid="mediation-row">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <Link to={adminMediationUrl(r.id)} className="min-w-0 break-words font-medium text-primary underline">
                  {r.subject}
                </Link>
                <MediationStatusBadge status={r.status} label={r.statusLabel} />
              </div>
              <p className="break-words text-sm text-muted-foreground">
                Demandée par {r.openedByName}, concerne {r.respondentName} · le {formatAdminDate(r.createdAt)} · {r.messages} message
                {r.messages > 1 ? "s" : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
      {queue ? <Pagination page={queue.page} pageCount={queue.pageCount} href={(p) => listHref(query.status, p)} /> : null}
    </section>
  );
}
