import { FolderOpen, Inbox, Lock, Search, User } from "lucide-react";
import { Form, isRouteErrorResponse, Link } from "react-router";
import { can } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { Pagination } from "~/components/pagination";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { PageHeader } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import { MessagesUpsell } from "~/features/messages/components/messages-upsell";
import { type ConversationView, normaliseSearch, parseConversationView } from "~/features/messages/conversation-rules";
import { listConversations } from "~/features/messages/conversations.server";
import { MESSAGING_ERRORS } from "~/features/messages/messages.schema";
import { countLabel, formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/messages";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Messages"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  const limited = !can(actor.profile.membershipType, "fullInbox");
  const url = new URL(request.url);
  const view = parseConversationView(url.searchParams.get("vue"));
  const search = normaliseSearch(url.searchParams.get("q"));
  const requested = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  const page = Number.isFinite(requested) && requested >= 1 ? Math.min(requested, 10_000) : 1;
  try {
    return { ...(await listConversations(actor, { view, search, page })), view, search, limited, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "conversations load failed");
    return { items: [], total: 0, page: 1, pageCount: 1, unreadConversations: 0, view, search, limited, failed: true };
  }
});

const VIEWS: { value: ConversationView; label: string }[] = [
  { value: "toutes", label: "Toutes" },
  { value: "confreres", label: "Par interlocuteur" },
  { value: "dossiers", label: "Par dossier" },
];

function listHref(view: ConversationView, search: string, page = 1): string {
  const params = new URLSearchParams();
  if (view !== "toutes") params.set("vue", view);
  if (search) params.set("q", search);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/dashboard/messages?${query}` : "/dashboard/messages";
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pageCount, unreadConversations, view, search, limited, failed } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-5">
      <PageHeader
        level={2}
        titleId="tab-title"
        title="Messages"
        description={
          <span data-testid="inbox-count">
            {countLabel(total, search ? "conversation trouvée" : "conversation", search ? "conversations trouvées" : "conversations")}
            {unreadConversations > 0 ? ` · ${countLabel(unreadConversations, "non lue", "non lues")}` : ""}
          </span>
        }
        badge={
          limited ? (
            <Badge variant="waiting" className="gap-1">
              <Lock className="h-3 w-3" aria-hidden="true" />
              Contenu limité
            </Badge>
          ) : null
        }
      />

      {limited ? <MessagesUpsell /> : null}

      <div className="grid gap-3">
        <nav aria-label="Classer les conversations" className="overflow-x-auto">
          <ul className="flex min-w-max gap-1 rounded-lg bg-muted p-1">
            {VIEWS.map((v) => (
              <li key={v.value}>
                <Link
                  to={listHref(v.value, search)}
                  aria-current={v.value === view ? "page" : undefined}
                  className={cn(
                    "block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground",
                    v.value === view && "bg-background text-foreground shadow-sm",
                  )}
                >
                  {v.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          {view !== "toutes" ? <input type="hidden" name="vue" value={view} /> : null}
          <div className="grid min-w-0 flex-1 gap-1">
            <Label htmlFor="conversations-search">Rechercher dans vos messages</Label>
            <Input
              id="conversations-search"
              type="search"
              name="q"
              defaultValue={search}
              maxLength={100}
              placeholder="Nom, objet, dossier, mot du message…"
            />
          </div>
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" />
            Rechercher
          </Button>
          {search ? (
            <Button asChild variant="ghost">
              <Link to={listHref(view, "")}>Effacer</Link>
            </Button>
          ) : null}
        </Form>
      </div>

      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>Erreur</AlertTitle>
          <AlertDescription>{MESSAGING_ERRORS.loadFailed}</AlertDescription>
        </Alert>
      ) : items.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center" data-testid="conversations-empty">
          <Inbox className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          {search ? (
            <>
              <h3 className="text-lg font-semibold">Aucune conversation trouvée</h3>
              <p className="text-sm text-muted-foreground">Essayez un autre nom, un autre mot ou la référence d’un dossier.</p>
            </>
          ) : (
            <>
              <h3 className="text-lg font-semibold">Aucun message</h3>
              <p className="text-sm text-muted-foreground">
                {view === "dossiers"
                  ? "Les échanges de vos dossiers de rapprochement apparaîtront ici."
                  : "Les messages de vos confrères, de vos dossiers et des visiteurs de l’annuaire apparaîtront ici."}
              </p>
            </>
          )}
        </Card>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Conversations">
          {items.map((c) => (
            <li key={c.key}>
              <Link
                to={`/dashboard/messages/${c.key}`}
                className={cn("flex flex-col gap-1 p-4 hover:bg-muted focus-visible:bg-muted", c.unread > 0 && "bg-blue-50/60")}
                data-testid="conversation-item"
              >
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  {c.kind === "file" ? (
                    <FolderOpen className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  ) : (
                    <User className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  <span className={cn("min-w-0 break-words", c.unread > 0 ? "font-bold" : "font-medium")}>{c.title}</span>
                  {c.subtitle ? <span className="min-w-0 break-words text-muted-foreground">{c.subtitle}</span> : null}
                  {c.unread > 0 ? (
                    <Badge variant="default">{countLabel(c.unread, "non lu", "non lus")}</Badge>
                  ) : (
                    <span className="sr-only">Lu</span>
                  )}
                  <time dateTime={c.lastAt} className="ml-auto text-muted-foreground tabular-nums">
                    {formatDateTime(c.lastAt)}
                  </time>
                </span>
                {c.subject ? (
                  <span className={cn("break-words", c.unread > 0 ? "font-semibold" : "font-medium")} data-typography="skip">
                    {c.subject}
                  </span>
                ) : null}
                <span className="line-clamp-2 break-words text-sm text-muted-foreground">
                  {c.lastByMe ? "Vous\u00a0: " : ""}
                  <span data-typography="skip">{c.preview ?? ""}</span>
                  {c.limited ? <span className="sr-only"> (suite réservée aux membres Premium)</span> : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      <Pagination page={page} pageCount={pageCount} href={(p) => listHref(view, search, p)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <h2 id="tab-title" className="text-xl font-semibold">
        Messages
      </h2>
      <Alert variant="destructive">
        <AlertTitle>Erreur</AlertTitle>
        <AlertDescription>{status === 403 ? "Accès refusé." : MESSAGING_ERRORS.loadFailed}</AlertDescription>
      </Alert>
    </section>
  );
}
