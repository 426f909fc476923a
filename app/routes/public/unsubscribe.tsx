import { BellOff, CheckCircle2, XCircle } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { PageContainer } from "~/components/page";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { NOTIFICATION_LABELS, type NotificationType } from "~/features/account/account.schema";
import { applyUnsubscribe, findUnsubscribeTarget } from "~/features/account/account.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/unsubscribe";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Désabonnement"),
  { name: "robots", content: "noindex" },
];

type View =
  | { kind: "invalid" }
  | { kind: "error" }
  | { kind: "confirm"; type: NotificationType; alreadyOff: boolean }
  | { kind: "done"; type: NotificationType };

function linkOf(request: Request) {
  const url = new URL(request.url);
  const param = (name: string) => url.searchParams.get(name);
  return { profile: param("profile"), guest: param("invite"), type: param("type"), token: param("token") };
}

// Public by design: the signed link is the credential. Opening it changes nothing (mail
// scanners pre-fetch links); the confirmation button POSTs.
export const loader = atEdge(async function loader({ request }: Route.LoaderArgs): Promise<View> {
  try {
    const target = await findUnsubscribeTarget(linkOf(request));
    if (target.outcome !== "ok") return { kind: "invalid" };
    return { kind: "confirm", type: target.type, alreadyOff: target.alreadyOff };
  } catch (error) {
    logger.error({ err: error }, "unsubscribe lookup failed");
    return { kind: "error" };
  }
});

export const action = atEdge(async function action({ request }: Route.ActionArgs): Promise<View> {
  try {
    const link = linkOf(request);
    const target = await findUnsubscribeTarget(link);
    if (target.outcome !== "ok" || (await applyUnsubscribe(link)) !== "done") return { kind: "invalid" };
    return { kind: "done", type: target.type };
  } catch (error) {
    logger.error({ err: error }, "unsubscribe failed");
    return { kind: "error" };
  }
});

function ManageLink() {
  return (
    <p className="text-center text-sm text-muted-foreground">
      Vous pouvez gérer toutes vos préférences depuis{" "}
      <Link to="/parametres/notifications" className="font-medium text-primary underline underline-offset-2">
        les paramètres de votre compte
      </Link>
      .
    </p>
  );
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <PageContainer className="flex max-w-xl justify-center py-16">
      <Card className="w-full">
        {view.kind === "invalid" || view.kind === "error" ? (
          <>
            <CardHeader className="items-center text-center">
              <XCircle className="h-12 w-12 text-destructive" aria-hidden="true" />
              <h1 className="text-xl font-semibold">
                {view.kind === "invalid" ? "Lien de désabonnement invalide" : "Une erreur est survenue. Veuillez réessayer."}
              </h1>
              <CardDescription>
                Vérifiez que vous avez ouvert le lien complet reçu par e-mail, ou modifiez vos préférences depuis votre compte.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <ManageLink />
            </CardContent>
          </>
        ) : view.kind === "confirm" ? (
          <>
            <CardHeader className="items-center text-center">
              <BellOff className="h-12 w-12 text-primary" aria-hidden="true" />
              <h1 className="text-xl font-semibold">Se désabonner des e-mails</h1>
              <CardDescription>
                Notification concernée&nbsp;: <strong>{NOTIFICATION_LABELS[view.type].label}</strong>
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {view.alreadyOff ? (
                <p className="text-center text-sm">Vous ne recevez déjà plus ces e-mails.</p>
              ) : (
                <>
                  <p className="text-center text-sm">
                    Vous ne recevrez plus d’e-mail pour cette notification. Les informations restent consultables dans votre
                    espace membre.
                  </p>
                  <Form method="post" className="flex justify-center">
                    <Button type="submit" size="lg" disabled={busy}>
                      {busy ? "Désabonnement..." : "Confirmer le désabonnement"}
                    </Button>
                  </Form>
                </>
              )}
              <ManageLink />
            </CardContent>
          </>
        ) : (
          <>
            <CardHeader className="items-center text-center">
              <CheckCircle2 className="h-12 w-12 text-success" aria-hidden="true" />
              <h1 className="text-xl font-semibold">Désabonnement confirmé</h1>
              <CardDescription>
                Vous ne recevrez plus d’e-mails pour&nbsp;: {NOTIFICATION_LABELS[view.type].label}.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <ManageLink />
            </CardContent>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
