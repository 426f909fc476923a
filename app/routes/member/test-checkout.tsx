// Local test checkout: stands in for Stripe Checkout when STRIPE_SECRET_KEY is not set (404
// otherwise). Paying or cancelling posts a signed event to the same webhook handler as Stripe.
import { FlaskConical } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireUser } from "~/auth/session.server";
import { PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { completeLocalCheckout, getLocalCheckout } from "~/features/membership/membership.server";
import { FOUNDING_PRODUCT_NAME, isLocalCheckoutEnabled } from "~/features/membership/payment-provider.server";
import { ttc } from "~/features/membership/offers";
import type { Route } from "./+types/test-checkout";
import { readForm } from "~/lib/form.server";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = () => [{ title: "Paiement de test — aucun débit réel" }, { name: "robots", content: "noindex" }];

// With Stripe configured this page does not exist, for anyone.
function requireLocalCheckout() {
  if (!isLocalCheckoutEnabled()) throw data({ message: "Page introuvable" }, { status: 404 });
}

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  requireLocalCheckout();
  const user = await requireUser(request);
  const checkout = await getLocalCheckout(user, params.sessionId);
  return { amount: ttc(checkout.amountCents / 100), product: FOUNDING_PRODUCT_NAME, email: user.email };
});

export const action = atEdge(async function action({ request, params }: Route.ActionArgs) {
  requireLocalCheckout();
  const user = await requireUser(request);
  const intent = (await readForm(request)).get("intent");
  if (intent !== "pay" && intent !== "cancel") throw data({ message: "Action inconnue" }, { status: 400 });
  const to = await completeLocalCheckout(user, params.sessionId, intent);
  return redirect(to);
});

export default function TestCheckout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <PageContainer className="max-w-xl">
      <PageTitle className="text-2xl md:text-3xl">Paiement de test — aucun débit réel</PageTitle>
      <Alert variant="info" className="mt-6 flex gap-3">
        <FlaskConical className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <AlertDescription>
          Aucun prestataire de paiement n’est configuré sur ce serveur (variable STRIPE_SECRET_KEY absente). Cette page
          simule le paiement&nbsp;: aucune carte n’est demandée et aucune somme n’est prélevée.
        </AlertDescription>
      </Alert>
      <Card className="mt-6">
        <CardHeader>
          <h2 className="text-lg font-semibold">{loaderData.product}</h2>
          <CardDescription>Compte&nbsp;: {loaderData.email}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <p className="text-3xl font-bold text-primary">
            {loaderData.amount} <span className="text-base font-normal text-muted-foreground">/ an</span>
          </p>
          <Form method="post" className="flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="pay" disabled={busy}>
              Payer {loaderData.amount} (test)
            </Button>
            <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
              Annuler
            </Button>
          </Form>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
