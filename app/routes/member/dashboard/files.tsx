import { FolderOpen } from "lucide-react";
import { isRouteErrorResponse, Link } from "react-router";
import { requireMember } from "~/auth/session.server";
import { PageHeader } from "~/components/page";
import { Pagination } from "~/components/pagination";
import { EmptyState } from "~/components/states";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fileUrl, PENDING_ACTION_LABELS } from "~/features/collaboration/collaboration-rules";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import { StageBadge } from "~/features/collaboration/components/stage-badge";
import { countLabel, formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/files";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Mes dossiers"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const requested = Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10);
  try {
    return { ...(await listMyFiles({ profileId: profile.id }, Number.isFinite(requested) ? requested : 1)), failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "files list failed");
    return { items: [], total: 0, page: 1, pageCount: 1, awaiting: 0, failed: true };
  }
});

export default function Files({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pageCount, awaiting, failed } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-stack">
      <PageHeader
        level={2}
        titleId="tab-title"
        title="Mes dossiers"
        description={
          <span data-testid="files-count">
            {countLabel(total, "dossier de rapprochement", "dossiers de rapprochement")}
            {awaiting > 0 ? ` · ${countLabel(awaiting, "attend votre action", "attendent votre action")}` : ""}
          </span>
        }
      />
      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>Erreur</AlertTitle>
          <AlertDescription>Impossible de charger vos dossiers pour le moment. Veuillez réessayer dans un instant.</AlertDescription>
        </Alert>
      ) : items.length === 0 ? (
        <EmptyState
          icon={FolderOpen}
          title="Aucun dossier pour l’instant"
          description={
            <>
              Un dossier de rapprochement s’ouvre dès qu’une mise en relation est confirmée par les deux parties. Vous y suivez
              l’opération jusqu’à sa conclusion&nbsp;: étapes, messages, documents et convention d’honoraires.
            </>
          }
          action={
            <Button asChild variant="outline">
              <Link to="/mandates">Voir mes mandats et leurs correspondances</Link>
            </Button>
          }
        />
      ) : (
        <ul className="grid gap-3" aria-label="Dossiers de rapprochement">
          {items.map((f) => (
            <li key={f.id}>
              <Card className="grid gap-2 p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link to={fileUrl(f.id)} className="min-w-0 break-words text-base font-semibold text-primary hover:underline">
                    {f.counterpartName}
                    {f.counterpartCompany ? <span className="font-normal text-muted-foreground"> · {f.counterpartCompany}</span> : null}
                  </Link>
                  <div className="flex flex-wrap items-center gap-2">
                    {f.pending ? (
                      <Badge variant="warning" data-testid="file-pending">
                        {PENDING_ACTION_LABELS[f.pending]}
                      </Badge>
                    ) : null}
                    {f.unread > 0 && f.pending !== "unread-messages" ? (
                      <Badge variant="secondary">{countLabel(f.unread, "message non lu", "messages non lus")}</Badge>
                    ) : null}
                    <StageBadge stage={f.stage} label={f.stageLabel} />
                  </div>
                </div>
                <p className="break-words text-sm text-muted-foreground">
                  Votre {lowerFirst(f.myMandateLabel)} · son {lowerFirst(f.theirMandateLabel)}
                </p>
                <p className="text-xs text-muted-foreground">
                  Dossier <span data-testid="file-reference">{f.reference}</span> · dernière activité&nbsp;: {formatDateTime(f.lastActivityAt)}
                </p>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} href={(p) => `/dashboard/dossiers?page=${p}`} />
    </section>
  );
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) ? ((error.data as { message?: string } | null)?.message ?? "Erreur") : "Une erreur est survenue.";
  return (
    <Alert variant="destructive">
      <AlertTitle>Erreur</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
