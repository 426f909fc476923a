import { CheckCircle2, XCircle } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { PageContainer } from "~/components/page";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { confirmRecommendation, findRecommendationFromLink } from "~/features/recommendations/recommendations.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/confirm-recommendation";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Confirmation de recommandation"),
  { name: "robots", content: "noindex" },
];

type View =
  | { kind: "error"; message: string }
  | { kind: "confirm"; memberName: string; company: string; sponsorName: string }
  | { kind: "success"; justConfirmed: boolean };

const ERRORS = {
  missing: "Paramètres manquants dans le lien",
  notFound: "Recommandation non trouvée",
  failed: "Erreur lors de la confirmation",
};

function linkParams(request: Request) {
  const url = new URL(request.url);
  return { profile: url.searchParams.get("profile"), email: url.searchParams.get("email"), token: url.searchParams.get("token") };
}

// Public by design: the signed link is the credential. Opening it only shows the request;
// confirming is a POST, so that mail scanners pre-fetching links confirm nothing.
export const loader = atEdge(async function loader({ request }: Route.LoaderArgs): Promise<View> {
  try {
    const found = await findRecommendationFromLink(linkParams(request));
    if (found.outcome === "missing") return { kind: "error", message: ERRORS.missing };
    if (found.outcome === "not-found") return { kind: "error", message: ERRORS.notFound };
    if (found.outcome === "already-confirmed") return { kind: "success", justConfirmed: false };
    return { kind: "confirm", memberName: found.memberName, company: found.company, sponsorName: found.sponsorName };
  } catch (error) {
    logger.error({ err: error }, "recommendation lookup failed");
    return { kind: "error", message: ERRORS.failed };
  }
});

export const action = atEdge(async function action({ request }: Route.ActionArgs): Promise<View> {
  try {
    const outcome = await confirmRecommendation(linkParams(request));
    if (outcome === "missing") return { kind: "error", message: ERRORS.missing };
    if (outcome === "not-found") return { kind: "error", message: ERRORS.notFound };
    return { kind: "success", justConfirmed: outcome === "confirmed" };
  } catch (error) {
    logger.error({ err: error }, "recommendation confirmation failed");
    return { kind: "error", message: ERRORS.failed };
  }
});

export default function ConfirmRecommendation({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  useEffect(() => {
    if (view.kind === "success" && view.justConfirmed) toast.success("Recommandation confirmée avec succès !");
  }, [view]);
  return (
    <PageContainer className="flex max-w-xl justify-center py-16">
      <Card className="w-full">
        {view.kind === "error" ? (
          <>
            <CardHeader className="items-center text-center" role="alert">
              <XCircle className="h-12 w-12 text-destructive" aria-hidden="true" />
              <CardTitle>{view.message}</CardTitle>
              <CardDescription>Vérifiez que vous avez ouvert le lien complet reçu par e-mail.</CardDescription>
            </CardHeader>
            <CardContent className="flex justify-center">
              <Button asChild>
                <Link to="/">Retour à l’accueil</Link>
              </Button>
            </CardContent>
          </>
        ) : view.kind === "confirm" ? (
          <>
            <CardHeader>
              <h1 className="text-xl font-semibold">Confirmer votre recommandation</h1>
              <CardDescription>
                {view.sponsorName}, {view.memberName} ({view.company}) vous a désigné comme parrain pour rejoindre le réseau.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <p className="text-sm">
                En confirmant, vous attestez connaître le sérieux et la pratique professionnelle de {view.memberName}. Si vous ne
                connaissez pas cette personne, fermez simplement cette page.
              </p>
              <Form method="post">
                <Button type="submit" size="lg" disabled={busy}>
                  {busy ? "Confirmation..." : "Confirmer ma recommandation"}
                </Button>
              </Form>
            </CardContent>
          </>
        ) : (
          <>
            <CardHeader className="items-center text-center">
              <CheckCircle2 className="h-12 w-12 text-success" aria-hidden="true" />
              <h1 className="text-xl font-semibold">Recommandation confirmée avec succès !</h1>
              <CardDescription>Merci pour votre confiance. Vous aussi, rejoignez le réseau des professionnels de la transmission.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-wrap justify-center gap-3">
              <Button asChild variant="accent">
                <Link to="/join-founder">Découvrir l’offre fondateur</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/">Retour à l’accueil</Link>
              </Button>
            </CardContent>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
