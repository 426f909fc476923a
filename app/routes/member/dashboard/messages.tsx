import { Inbox, Lock } from "lucide-react";
import { isRouteErrorResponse, Link } from "react-router";
import { can } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { PremiumUpsellCard } from "~/features/messages/components/premium-upsell";
import { MESSAGING_ERRORS } from "~/features/messages/messages.schema";
import { listInbox } from "~/features/messages/messages.server";
import { countLabel, formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Messages"), { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  const limited = !can(actor.profile.membershipType, "fullInbox");
  const requested = Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10);
  const page = Number.isFinite(requested) && requested >= 1 ? Math.min(requested, 10_000) : 1;
  try {
    return { ...(await listInbox(actor, page)), limited, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "inbox load failed");
    return { items: [], total: 0, unread: 0, page: 1, pageCount: 1, limited, failed: true };
  }
}

const TYPE_LABELS = { public_contact: "Contact public", internal: "Message interne" } as const;

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { items, total, unread, page, pageCount, limited, failed } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="tab-title" className="text-xl font-semibold">
            Messages
          </h2>
          <p className="text-sm text-muted-foreground" data-testid="inbox-count">
            {countLabel(total, "message reçu", "messages reçus")}
            {unread > 0 ? ` · ${countLabel(unread, "non lu", "non lus")}` : ""}
          </p>
        </div>
        {limited ? (
          <Badge variant="warning" className="gap-1">
            <Lock className="h-3 w-3" aria-hidden="true" />
            Contenu limité
          </Badge>
        ) : null}
      </div>

      {limited ? (
        <PremiumUpsellCard>
          <p>
            En Freemium, vous voyez l’expéditeur, l’objet et le début des messages de contact. Avec Premium, lisez
            l’intégralité de vos messages et répondez à vos confrères depuis la messagerie interne.
          </p>
        </PremiumUpsellCard>
      ) : null}

      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>Erreur</AlertTitle>
          <AlertDescription>{MESSAGING_ERRORS.loadFailed}</AlertDescription>
        </Alert>
      ) : items.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center">
          <Inbox className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          <h3 className="text-lg font-semibold">Aucun message</h3>
          <p className="text-sm text-muted-foreground">
            Les messages de vos confrères et des visiteurs de l’annuaire apparaîtront ici.
          </p>
        </Card>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Messages reçus">
          {items.map((m) => (
            <li key={m.id}>
              <Link
                to={`/dashboard/messages/${m.id}`}
                className={cn("flex flex-col gap-1 p-4 hover:bg-muted focus-visible:bg-muted", !m.isRead && "bg-blue-50/60")}
                data-testid="inbox-item"
              >
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  {m.isRead ? null : (
                    <Badge variant="default" className="gap-1">
                      <span className="h-1.5 w-1.5 rounded-full bg-white" aria-hidden="true" />
                      Non lu
                    </Badge>
                  )}
                  <span className={cn("min-w-0 break-words", m.isRead ? "font-medium" : "font-bold")}>{m.senderName}</span>
                  <Badge variant="outline" className="font-normal">
                    {TYPE_LABELS[m.messageType]}
                  </Badge>
                  {m.limited ? (
                    <Badge variant="warning" className="font-normal">
                      Contenu limité
                    </Badge>
                  ) : null}
                  <time dateTime={m.createdAt} className="ml-auto text-muted-foreground tabular-nums">
                    {formatDateTime(m.createdAt)}
                  </time>
                </span>
                <span className={cn("break-words", m.isRead ? "font-medium" : "font-semibold")}>{m.subject}</span>
                <span className="line-clamp-2 break-words text-sm text-muted-foreground">
                  {m.preview ?? "Contenu réservé aux membres Premium."}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-3">
          {page > 1 ? (
            <Button asChild variant="outline">
              <Link to={page - 1 > 1 ? `?page=${page - 1}` : "/dashboard/messages"} rel="prev">
                Page précédente
              </Link>
            </Button>
          ) : null}
          <span className="text-sm text-muted-foreground">
            Page {page} sur {pageCount}
          </span>
          {page < pageCount ? (
            <Button asChild variant="outline">
              <Link to={`?page=${page + 1}`} rel="next">
                Page suivante
              </Link>
            </Button>
          ) : null}
        </nav>
      ) : null}
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
