// /dossiers-partages: the files a participant was admitted to or awaits. The home of
// a guest account, the only page of the network it reaches besides its files and
// its account settings; members invited to a file find it here too.
import { FolderOpen, ShieldCheck } from "lucide-react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { getRequestIsGuest, GUEST_HOME_PATH, requireUser } from "~/auth/session.server";
import { notificationActionSchema } from "~/features/notifications/notifications.schema";
import { getNotificationState, markAllNotificationsRead, markNotificationRead, type NotificationItem } from "~/features/notifications/notifications.server";
import { readForm } from "~/lib/form.server";
import { formatDatePattern } from "~/lib/format";
import { AppPage, PageHeader } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { listSharedFiles } from "~/features/collaboration/participants.server";
import type { Route } from "./+types/files";
import { atEdge } from "~/lib/errors/http";

const SHARED_NEWS_SHOWN = 10;

export const meta: Route.MetaFunction = () => [{ title: "Dossiers partagés" }, { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  // A guest account has no bell: its notifications (all about its files) are listed here; a
  // member participant reads theirs under the bell of the member pages.
  const news = (await getRequestIsGuest(user.id)) ? sharedNews((await getNotificationState(user.id)).items) : [];
  return { files: await listSharedFiles(user.id), twoFactor: user.twoFactorEnabled, email: user.email, news };
});

/**
 * A guest marks its news read (one, or all at once) or opens one (marked read, then its page): the
 * notification centre's form, on the guest's own notifications; a link is only followed inside
 * the shared files.
 */
export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request, { guests: true });
  const submission = parseWithZod(await readForm(request), { schema: notificationActionSchema });
  if (submission.status !== "success") return data({ message: "Requête invalide" }, { status: 400 });
  const value = submission.value;
  const actor = { user: { id: user.id } };
  if (value.intent === "read-all") {
    await markAllNotificationsRead(actor);
    return { ok: true };
  }
  const { link } = await markNotificationRead(actor, value.id);
  if (value.intent === "open") throw redirect(link?.startsWith(`${GUEST_HOME_PATH}/`) ? link : GUEST_HOME_PATH);
  return { ok: true };
});

/** The latest notifications that lead to a shared file's page (never elsewhere), newest first. */
function sharedNews(items: NotificationItem[]) {
  return items
    .filter((i) => i.link !== null && i.link.startsWith(`${GUEST_HOME_PATH}/`))
    .slice(0, SHARED_NEWS_SHOWN)
    .map((i) => ({ id: i.id, title: i.title, body: i.body, link: i.link!, createdAt: i.createdAt, read: i.read }));
}

export default function SharedFiles({ loaderData }: Route.ComponentProps) {
  const { files, twoFactor, email, news } = loaderData;
  return (
    <AppPage>
      <PageHeader
        title="Dossiers partagés avec vous"
        secondary={
          <Form method="post" action="/logout">
            <Button type="submit" variant="ghost" size="sm">
              Se déconnecter<span className="sr-only"> ({email})</span>
            </Button>
          </Form>
        }
      />
      {!twoFactor ? (
        <Card className="flex flex-wrap items-center gap-3 p-4" data-testid="two-factor-offer">
          <ShieldCheck className="h-5 w-5 text-muted-foreground" aria-hidden="true" />
          <p className="min-w-0 flex-1 text-sm">Protégez l’accès à ces dossiers confidentiels&nbsp;: activez la double authentification.</p>
          <Button asChild variant="outline" size="sm">
            <Link to="/parametres/securite">Activer</Link>
          </Button>
        </Card>
      ) : null}
      {files.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center">
          <FolderOpen className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-semibold">Aucun dossier pour l’instant</p>
        </Card>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Dossiers partagés">
          {files.map((f) => (
            <li key={f.fileId} className="flex flex-wrap items-center justify-between gap-2 p-4" data-testid="shared-file">
              <div className="grid min-w-0 gap-1">
                {f.status === "active" ? (
                  <Link to={sharedFileUrl(f.fileId)} className="font-medium underline">
                    Dossier {f.reference}
                  </Link>
                ) : (
                  <span className="font-medium">Dossier {f.reference}</span>
                )}
                <span className="text-sm text-muted-foreground">
                  {f.roleLabel} · {f.sideLabel}
                </span>
              </div>
              <Badge variant={f.status === "active" ? "default" : "outline"}>{f.stateLabel}</Badge>
            </li>
          ))}
        </ul>
      )}
      {news.length ? (
        <Card className="grid gap-2 p-4" aria-labelledby="shared-news-title">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="shared-news-title" className="font-semibold">
              Dernières nouvelles de vos dossiers
            </h2>
            {news.some((n) => !n.read) ? (
              <Form method="post">
                <input type="hidden" name="intent" value="read-all" />
                <Button type="submit" variant="outline" size="sm">
                  Tout marquer comme lu
                </Button>
              </Form>
            ) : null}
          </div>
          <ul className="grid gap-2" data-testid="shared-news">
            {news.map((n) => (
              <li key={n.id} className="grid gap-0.5">
                <span className="flex flex-wrap items-center gap-2">
                  {n.read ? (
                    <Link to={n.link} className="min-w-0 break-words font-medium underline">
                      {n.title}
                    </Link>
                  ) : (
                    // Opening an unread one marks it read on the way (the bell's « open »).
                    <Form method="post" className="min-w-0">
                      <input type="hidden" name="intent" value="open" />
                      <input type="hidden" name="id" value={n.id} />
                      <button type="submit" className="break-words text-left font-medium underline">
                        {n.title}
                      </button>
                    </Form>
                  )}
                  {n.read ? null : <Badge>Nouveau</Badge>}
                  {n.read ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="read" />
                      <input type="hidden" name="id" value={n.id} />
                      <Button type="submit" variant="ghost" size="sm">
                        Marquer comme lu<span className="sr-only"> ({n.title})</span>
                      </Button>
                    </Form>
                  )}
                </span>
                {n.body ? <span className="text-sm text-muted-foreground">{n.body}</span> : null}
                <time className="text-xs text-muted-foreground" dateTime={n.createdAt}>
                  {formatDatePattern(n.createdAt, "dd/MM/yyyy 'à' HH:mm")}
                </time>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </AppPage>
  );
}
