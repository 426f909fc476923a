// What /onboarding shows instead of the joining steps when the team has suspended the member or
// rejected the application (spec §4 "Profile (admin)"): a clear message, no form.
import { Form, Link } from "react-router";
import { PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";

export type ClosedMembership = { status: "suspended"; reason: null } | { status: "rejected"; reason: string | null };

export function MembershipClosed({ closed }: { closed: ClosedMembership }) {
  const suspended = closed.status === "suspended";
  return (
    <PageContainer className="max-w-2xl">
      <PageTitle>{suspended ? "Compte suspendu" : "Demande d’adhésion non retenue"}</PageTitle>
      <div className="mt-6 grid gap-4">
        <Alert variant={suspended ? "destructive" : "info"}>
          <AlertDescription>
            {suspended
              ? "Votre compte membre a été suspendu par l’équipe du réseau. Vous n’avez plus accès à l’espace membre et votre profil n’apparaît plus dans les annuaires."
              : "Après examen de votre dossier, notre équipe n’a pas pu valider votre demande d’adhésion au réseau."}
          </AlertDescription>
        </Alert>
        {!suspended && closed.reason ? <p className="whitespace-pre-line">Motif indiqué&nbsp;: {closed.reason}</p> : null}
        <p className="text-muted-foreground">Pour toute question, notre équipe vous répond sous 48 heures ouvrées.</p>
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link to="/contact">Nous contacter</Link>
          </Button>
          <Form method="post" action="/logout">
            <Button type="submit" variant="outline">
              Se déconnecter
            </Button>
          </Form>
        </div>
      </div>
    </PageContainer>
  );
}
