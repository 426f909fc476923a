import { BookOpen, CircleQuestionMark, Clock, Headphones, Mail, MessageSquare } from "lucide-react";
import { Link } from "react-router";
import { PageContainer, PageTitle } from "~/components/page";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { isLegalPlaceholder, useLegalIdentity } from "~/lib/legal";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Support",
    "Besoin d’aide\u00a0? FAQ, formulaire de contact et support technique par e-mail\u00a0: réponse sous 48 heures ouvrées, support urgent du lundi au vendredi de 9h à 18h.",
  );

/** The support address: a mail link once configured, a highlighted placeholder until then. */
function SupportEmail() {
  const LEGAL_IDENTITY = useLegalIdentity();
  const email = LEGAL_IDENTITY.supportEmail;
  if (isLegalPlaceholder(email)) {
    return <mark className="rounded bg-amber-100 px-1 break-words text-amber-900">{email}</mark>;
  }
  return (
    <a href={`mailto:${email}`} className="font-medium break-all text-primary underline underline-offset-2">
      {email}
    </a>
  );
}

export default function Support() {
  return (
    <PageContainer className="max-w-5xl">
      <PageTitle>Support</PageTitle>
      <p className="mt-4 max-w-3xl text-muted-foreground">
        Une question sur votre adhésion, vos mandats ou un souci technique&nbsp;? Choisissez le canal le plus adapté&nbsp;: notre
        équipe vous accompagne.
      </p>

      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <Card className="flex flex-col">
          <CardHeader>
            <CircleQuestionMark className="h-8 w-8 text-primary" aria-hidden="true" />
            <CardTitle>Questions fréquentes</CardTitle>
            <CardDescription>
              Adhésion, parrainage, tarifs, confidentialité des mandats&nbsp;: les réponses aux questions les plus courantes.
            </CardDescription>
          </CardHeader>
          <CardFooter className="mt-auto">
            <Button asChild variant="outline" className="h-auto min-h-10 whitespace-normal py-2 text-center">
              <Link to="/faq">Parcourir les questions fréquentes</Link>
            </Button>
          </CardFooter>
        </Card>

        <Card className="flex flex-col">
          <CardHeader>
            <MessageSquare className="h-8 w-8 text-primary" aria-hidden="true" />
            <CardTitle>Contact</CardTitle>
            <CardDescription>
              Une demande sur le réseau, l’adhésion ou un partenariat&nbsp;? Utilisez le formulaire&nbsp;: nous répondons sous
              48 heures ouvrées.
            </CardDescription>
          </CardHeader>
          <CardFooter className="mt-auto">
            <Button asChild variant="outline" className="h-auto min-h-10 whitespace-normal py-2 text-center">
              <Link to="/contact">Accéder au formulaire de contact</Link>
            </Button>
          </CardFooter>
        </Card>

        <Card className="flex flex-col">
          <CardHeader>
            <BookOpen className="h-8 w-8 text-primary" aria-hidden="true" />
            <CardTitle>Documentation</CardTitle>
            <CardDescription>
              Guides pas à pas pour compléter votre profil, déposer un mandat et traiter vos mises en relation.
            </CardDescription>
          </CardHeader>
          <CardFooter className="mt-auto">
            <Button asChild variant="outline">
              <Link to="/aide">Consulter l’aide</Link>
            </Button>
          </CardFooter>
        </Card>

        <Card className="flex flex-col">
          <CardHeader>
            <Headphones className="h-8 w-8 text-primary" aria-hidden="true" />
            <CardTitle>Support technique</CardTitle>
            <CardDescription>
              Difficulté de connexion, d’affichage ou d’enregistrement&nbsp;? Écrivez-nous en décrivant le problème rencontré
              et la page concernée.
            </CardDescription>
          </CardHeader>
          <CardContent className="mt-auto">
            <p className="flex flex-wrap items-center gap-2 text-sm text-foreground">
              <Mail className="h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
              <SupportEmail />
            </p>
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="support-hours-title" className="mt-12 rounded-lg bg-muted p-6">
        <h2 id="support-hours-title" className="flex items-center gap-2 text-xl font-semibold text-foreground">
          <Clock className="h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
          Délais de réponse
        </h2>
        <ul className="mt-4 space-y-2 text-foreground">
          <li>
            <strong>Par e-mail</strong>&nbsp;: réponse sous 48 heures ouvrées.
          </li>
          <li>
            <strong>Support urgent</strong>&nbsp;: du lundi au vendredi, de 9h à 18h. Indiquez «&nbsp;Urgent&nbsp;» dans l’objet de
            votre e-mail pour que votre demande soit traitée en priorité.
          </li>
        </ul>
      </section>
    </PageContainer>
  );
}
