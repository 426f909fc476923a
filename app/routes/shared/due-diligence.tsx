// /dossiers-partages/:fileId/diligences: the due-diligence list as a participant's side sees it
// — read-only, each request opened to answer it or ask a question.
import { Link, redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { PageError } from "~/components/states";
import { AppPage, PageHeader } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { REACH_MESSAGES } from "~/features/due-diligence/participant-reach-rules";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { DdProgressBar, DdStatusBadge } from "~/features/due-diligence/components/dd-badges";
import { DD_CATEGORIES, DD_CATEGORY_LABELS, DD_SIDE_LABELS, dueDiligenceUrl } from "~/features/due-diligence/due-diligence-rules";
import { getParticipantDueDiligence } from "~/features/due-diligence/participant.server";
import { atEdge } from "~/lib/errors/http";
import { formatDate } from "~/lib/format";
import { pageHref, requestedPage } from "~/lib/paging";
import { Pagination } from "~/components/pagination";
import type { Route } from "./+types/due-diligence";

export const meta: Route.MetaFunction = () => [{ title: "Diligences du dossier partagé" }, { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  // A founding member reads the list on the file's own pages.
  if ((await requireFileParticipant(db, user.id, params.fileId)).kind === "founder") throw redirect(dueDiligenceUrl(params.fileId));
  return { list: await getParticipantDueDiligence(user.id, params.fileId, requestedPage(request.url)) };
});

export default function SharedDueDiligence({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <AppPage>
      <PageHeader
        back={{ to: sharedFileUrl(list.fileId), label: `Dossier ${list.reference}` }}
        title="Diligences"
        description={<>Vous intervenez au titre «&nbsp;{DD_SIDE_LABELS[list.side]}&nbsp;»&nbsp;: vous voyez les questions communes et celles de votre côté.</>}
      />
      {list.progress ? <DdProgressBar {...list.progress} /> : null}
      {list.items.length === 0 ? (
        <Alert>
          <AlertDescription>{REACH_MESSAGES.noList}</AlertDescription>
        </Alert>
      ) : null}
      {DD_CATEGORIES.map((category) => {
        const items = list.items.filter((i) => i.category === category);
        if (items.length === 0) return null;
        return (
          <Card key={category} className="grid gap-2 p-4">
            <h2 className="font-semibold">
              {DD_CATEGORY_LABELS[category]} <span className="text-sm font-normal text-muted-foreground">({list.byCategory[category] ?? items.length})</span>
            </h2>
            <ul className="grid gap-2">
              {items.map((item) => (
                <li key={item.id} className="flex flex-wrap items-center justify-between gap-2" data-testid="shared-dd-item">
                  <Link className="min-w-0 break-words text-primary underline" to={`${sharedFileUrl(list.fileId)}/diligences/${item.id}`}>
                    {item.title}
                  </Link>
                  <span className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                    <DdStatusBadge status={item.status} />
                    {item.documents} document{item.documents > 1 ? "s" : ""} · {item.openQuestions} question{item.openQuestions > 1 ? "s" : ""} ouverte{item.openQuestions > 1 ? "s" : ""}
                    {item.dueDate ? ` · échéance ${formatDate(item.dueDate)}` : ""}
                    {item.ownerName ? ` · responsable\u00a0: ${item.ownerName}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        );
      })}
      <Pagination page={list.page} pageCount={list.pageCount} href={(p) => pageHref(`${sharedFileUrl(list.fileId)}/diligences`, p)} />
    </AppPage>
  );
}

export function ErrorBoundary() {
  return <PageError title="Diligences indisponibles" message="Ce dossier n’existe pas, vous n’y avez pas accès, ou vos droits ne vous permettent pas de voir ses diligences." />;
}
