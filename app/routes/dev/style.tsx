// The design system's components in every state (docs/design-system.md), in development only
// (404 otherwise), like the other pages under /dev.
import { Download, FileText, Plus, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { AppPage, PageHeader } from "~/components/page";
import { EmptyState, ErrorState, LoadingState } from "~/components/states";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { ActionMenu, menuItemClass } from "~/components/ui/menu";
import { Wordmark } from "~/components/wordmark";
import { Email } from "~/components/email";
import { StatTiles } from "~/features/admin/components/stat-tiles";
import type { Route } from "./+types/style";

export function loader() {
  if (process.env.NODE_ENV !== "development") throw new Response("Page introuvable", { status: 404 });
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Système de conception" }, { name: "robots", content: "noindex" }];

const COLOURS = [
  ["primary", "bg-primary", "Encre : texte fort, action principale"],
  ["accent", "bg-accent", "Laiton : marque, Premium, membre fondateur"],
  ["canvas", "bg-canvas", "Fond de l’application"],
  ["muted", "bg-muted", "Surfaces secondaires"],
  ["border", "bg-border", "Bordures"],
  ["status-active", "bg-status-active", "En cours"],
  ["status-waiting", "bg-status-waiting", "En attente"],
  ["status-done", "bg-status-done", "Terminé"],
  ["status-risk", "bg-status-risk", "À risque"],
] as const;

const TYPE = [
  ["display", "text-display font-semibold", "Titre public"],
  ["page", "text-page font-semibold", "Titre de page"],
  ["section", "text-section font-semibold", "Titre de section"],
  ["body", "text-body", "Texte courant des écrans de l’application"],
  ["caption", "text-caption text-muted-foreground", "Légende, date, compteur"],
] as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-3" aria-label={title}>
      <h2 className="text-section font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export default function DevStyle() {
  return (
    <AppPage>
      <PageHeader
        title="Système de conception"
        description="Chaque composant dans chacun de ses états : la référence des écrans de l’application."
        primary={
          <Button>
            <Plus aria-hidden="true" />
            Action principale
          </Button>
        }
        secondary={
          <ActionMenu>
            {[
              <Link key="a" to="/dev/style" className={menuItemClass}>
                <Download aria-hidden="true" />
                Exporter
              </Link>,
              <button key="b" type="button" className={`${menuItemClass} text-destructive`}>
                <Trash2 aria-hidden="true" />
                Supprimer
              </button>,
            ]}
          </ActionMenu>
        }
      />

      <Section title="Marque">
        <Wordmark name="Réseau Transmission" />
      </Section>

      <Section title="Couleurs">
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          {COLOURS.map(([name, swatch, use]) => (
            <li key={name} className="flex items-center gap-3 rounded-md border p-2">
              <span className={`h-8 w-8 shrink-0 rounded ${swatch} border`} aria-hidden="true" />
              <span className="flex flex-col">
                <code className="text-caption">{name}</code>
                <span className="text-body">{use}</span>
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Typographie">
        {TYPE.map(([name, cls, sample]) => (
          <p key={name} className={cls}>
            {sample} <code className="text-caption text-muted-foreground">({name})</code>
          </p>
        ))}
      </Section>

      <Section title="Boutons">
        <div className="flex flex-wrap items-center gap-2">
          <Button>Principale</Button>
          <Button variant="outline">Secondaire</Button>
          <Button variant="secondary">Discrète</Button>
          <Button variant="ghost">Dans une ligne</Button>
          <Button variant="destructive">Supprimer</Button>
          <Button variant="accent">Passer Premium</Button>
          <Button variant="link">Lien</Button>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button disabled>Principale désactivée</Button>
          <Button variant="outline" disabled>
            Secondaire désactivée
          </Button>
          <Button size="sm">Petite</Button>
          <Button size="lg">Grande</Button>
          <Button size="icon" variant="outline" aria-label="Document">
            <FileText aria-hidden="true" />
          </Button>
        </div>
      </Section>

      <Section title="Statuts">
        <div className="flex flex-wrap gap-2">
          <Badge variant="active">En cours</Badge>
          <Badge variant="waiting">En attente</Badge>
          <Badge variant="done">Terminé</Badge>
          <Badge variant="risk">À risque</Badge>
          <Badge variant="accent">Membre fondateur</Badge>
          <Badge variant="secondary">Freemium</Badge>
          <Badge variant="outline">Brouillon</Badge>
        </div>
      </Section>

      <Section title="Champs">
        <div className="grid max-w-md gap-3">
          <label className="flex flex-col gap-1 text-body font-medium">
            Champ
            <Input placeholder="Valeur" />
          </label>
          <label className="flex flex-col gap-1 text-body font-medium">
            Champ en erreur
            <Input aria-invalid="true" defaultValue="abc" aria-describedby="style-error" />
            <span id="style-error" className="text-caption text-destructive">
              Ce champ est obligatoire
            </span>
          </label>
          <label className="flex flex-col gap-1 text-body font-medium">
            Champ désactivé
            <Input disabled defaultValue="Non modifiable" />
          </label>
        </div>
      </Section>

      <Section title="Liste d’enregistrements">
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-left text-body">
            <thead className="bg-muted text-caption uppercase tracking-wide text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Dossier</th>
                <th className="px-3 py-2 font-medium">Statut</th>
                <th className="px-3 py-2 font-medium">Mise à jour</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {(
                [
                  ["Boulangerie du Port", "active", "En cours"],
                  ["Cabinet Martin", "waiting", "En attente"],
                  ["Garage des Alpes", "done", "Terminé"],
                ] as const
              ).map(([name, tone, label]) => (
                <tr key={name}>
                  <td className="px-3 py-2 font-medium">{name}</td>
                  <td className="px-3 py-2">
                    <Badge variant={tone}>{label}</Badge>
                  </td>
                  <td className="px-3 py-2 text-muted-foreground">12/03/2026</td>
                  <td className="px-3 py-2 text-right">
                    <Button size="sm" variant="ghost">
                      Ouvrir
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title="Compteurs qui filtrent">
        <StatTiles
          items={[
            { label: "Total", value: 1284, href: "/dev/style", current: true },
            { label: "En attente", value: 12, href: "/dev/style?statut=en-attente" },
            { label: "Validés", value: 1240 },
          ]}
        />
        <p className="text-body">
          Adresse e-mail sur un écran étroit&nbsp;: <Email address="jean-baptiste.montgolfier-lefebvre@cabinet-transmission-exemple.fr" />
        </p>
      </Section>

      <Section title="Carte compacte">
        <Card className="max-w-sm">
          <CardHeader className="p-card">
            <CardTitle className="text-section">Mandat VEN-2026-014</CardTitle>
            <CardDescription>Cession d’un commerce de bouche, Lyon</CardDescription>
          </CardHeader>
          <CardContent className="p-card pt-0 text-body">Valorisation : 450 000 €</CardContent>
        </Card>
      </Section>

      <Section title="Alertes">
        <Alert>
          <AlertTitle>Information</AlertTitle>
          <AlertDescription>Votre référence sera visible après validation par un administrateur.</AlertDescription>
        </Alert>
      </Section>

      <Section title="États">
        <EmptyState title="Aucun dossier pour le moment" description="Un dossier s’ouvre quand une mise en relation est acceptée." action={<Button variant="outline">Voir les mandats</Button>} />
        <LoadingState label="Chargement des dossiers…" />
        <ErrorState message="Erreur lors du chargement des messages" action={<Button variant="outline" size="sm">Réessayer</Button>} />
      </Section>
    </AppPage>
  );
}
