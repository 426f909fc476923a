import { ClipboardList, FileSignature, FileText, FolderKanban, Paperclip, Scale, Star, Users } from "lucide-react";
import { isRouteErrorResponse, NavLink, Outlet } from "react-router";
import { requireMember } from "~/auth/session.server";
import { BackLink } from "~/components/page";
import { TabNav, type Tab } from "~/components/tab-nav";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { fileUrl } from "~/features/collaboration/collaboration-rules";
import { getFileHeader } from "~/features/collaboration/file-view.server";
import { StageBadge } from "~/features/collaboration/components/stage-badge";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/layout";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Dossier de rapprochement"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  return { header: await getFileHeader({ profileId: profile.id }, params.fileId) };
});

function fileTabs(fileId: string): Tab[] {
  const base = fileUrl(fileId);
  return [
    { to: base, label: "Suivi", icon: FolderKanban, end: true },
    { to: `${base}/documents`, label: "Documents", icon: Paperclip, end: false },
    { to: `${base}/diligences`, label: "Diligences", icon: ClipboardList, end: false },
    { to: `${base}/intervenants`, label: "Intervenants", icon: Users, end: false },
    { to: `${base}/convention`, label: "Convention", icon: FileSignature, end: false },
    { to: `${base}/evaluation`, label: "Évaluation", icon: Star, end: false },
  ];
}

export default function FileLayout({ loaderData }: Route.ComponentProps) {
  const { header } = loaderData;
  return (
    <div className="grid grid-cols-1 gap-4">
      <BackLink to="/dashboard/dossiers" label="Mes dossiers" />
      <header className="grid gap-2 rounded-lg border p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="min-w-0 break-words text-xl font-semibold">
            <FileText className="mr-2 inline h-5 w-5 align-[-3px] text-muted-foreground" aria-hidden="true" />
            Dossier avec {header.counterpartName}
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            <StageBadge stage={header.stage} label={header.stageLabel} />
            {/* A disagreement is an exception, not a place of the file: an action, not a tab. */}
            <Button asChild variant="outline" size="sm">
              <NavLink to={`${fileUrl(header.id)}/mediation`} title="Demander l’aide de l’équipe du réseau en cas de différend">
                <Scale aria-hidden="true" />
                Médiation
              </NavLink>
            </Button>
          </div>
        </div>
        <p className="break-words text-sm text-muted-foreground">
          <span data-testid="file-reference">Dossier {header.reference}</span>
          {header.counterpartCompany ? ` · ${header.counterpartCompany}` : null}
        </p>
        <dl className="grid gap-1 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="text-muted-foreground">Votre mandat</dt>
            <dd className="break-words font-medium">{header.myMandateLabel}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Mandat de votre confrère</dt>
            <dd className="break-words font-medium">{header.theirMandateLabel}</dd>
          </div>
        </dl>
      </header>
      <TabNav label="Sections du dossier" tabs={fileTabs(header.id)} />
      <Outlet />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message = isRouteErrorResponse(error)
    ? ((error.data as { message?: string } | null)?.message ?? "Erreur")
    : "Une erreur est survenue. Veuillez réessayer dans un instant.";
  return (
    <div className="grid gap-4">
      <BackLink to="/dashboard/dossiers" label="Mes dossiers" />
      <Alert variant="destructive">
        <AlertTitle>{notFound ? "Dossier introuvable" : "Erreur"}</AlertTitle>
        <AlertDescription>{notFound ? "Ce dossier n’existe pas ou vous n’en êtes pas membre." : message}</AlertDescription>
      </Alert>
    </div>
  );
}
