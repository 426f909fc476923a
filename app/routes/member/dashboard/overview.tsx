import { ArrowRight, BarChart3, FileText, type LucideIcon, Mail, Sparkles, Star, User, Users } from "lucide-react";
import { Link } from "react-router";
import { isPremium } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { countUnreadMessages } from "~/features/messages/messages.server";
import { countLabel } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Espace membre"), { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  let unread: number | null = null;
  try {
    unread = await countUnreadMessages(actor);
  } catch (error) {
    // The tile then simply shows no count.
    logger.warn({ err: error, requestId: context.requestId }, "unread count failed");
  }
  return {
    firstName: actor.profile.firstName,
    founding: actor.profile.membershipType === "founding_member",
    premium: isPremium(actor.profile.membershipType),
    unread,
  };
}

type Tile = {
  to: string;
  title: string;
  description: string;
  icon: LucideIcon;
  badge?: string | null;
};

function TileCard({ tile }: { tile: Tile }) {
  return (
    <Link
      to={tile.to}
      className="group block h-full rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Card className="flex h-full flex-col gap-3 p-5 transition-colors group-hover:border-primary">
        <div className="flex items-center justify-between gap-2">
          <span className="grid h-10 w-10 place-items-center rounded-md bg-primary/10 text-primary">
            <tile.icon className="h-5 w-5" aria-hidden="true" />
          </span>
          {tile.badge ? <Badge>{tile.badge}</Badge> : null}
        </div>
        <h3 className="flex items-center gap-1 text-lg font-semibold">
          {tile.title}
          <ArrowRight className="h-4 w-4 opacity-0 transition-opacity group-hover:opacity-100" aria-hidden="true" />
        </h3>
        <p className="text-sm text-muted-foreground">{tile.description}</p>
      </Card>
    </Link>
  );
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { firstName, founding, premium, unread } = loaderData;
  const tiles: Tile[] = [
    { to: "/mandates", title: "Mes mandats", description: "Déposez et gérez vos mandats acquéreurs et cédants.", icon: FileText },
    {
      to: "/dashboard/messages",
      title: "Messages",
      description: "Les messages de vos confrères et des visiteurs de l'annuaire.",
      icon: Mail,
      badge: unread ? countLabel(unread, "non lu", "non lus") : null,
    },
    { to: "/dashboard/annuaire", title: "Annuaire Interne", description: "Trouvez un confrère et contactez-le.", icon: Users },
    { to: "/dashboard/stats", title: "Statistiques", description: "Suivez l'activité de vos mandats.", icon: BarChart3 },
    { to: "/dashboard/profil", title: "Mon profil", description: "Complétez votre profil professionnel.", icon: User },
  ];
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-6">
      <div>
        <h2 id="tab-title" className="text-xl font-semibold">
          Bonjour {firstName}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">Bienvenue dans votre espace membre.</p>
      </div>

      {founding ? (
        <Card className="flex flex-col gap-3 border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-start" data-testid="founding-welcome">
          <Star className="h-8 w-8 shrink-0 text-amber-700" aria-hidden="true" />
          <div>
            <h3 className="text-lg font-semibold text-amber-950">Bienvenue parmi les membres fondateurs !</h3>
            <p className="mt-1 text-sm text-amber-950">
              Merci de votre confiance. Votre badge de membre fondateur est acquis à vie : votre profil est mis en avant
              dans les annuaires, vous bénéficiez d'un accès anticipé aux nouvelles fonctionnalités et serez invité à
              l'événement annuel du réseau.
            </p>
          </div>
        </Card>
      ) : null}

      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Accès rapides">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <TileCard tile={tile} />
          </li>
        ))}
      </ul>

      <Card className={cn("flex flex-col gap-4 p-6 md:flex-row md:items-center", "border-primary/30 bg-blue-50")}>
        <Sparkles className="h-8 w-8 shrink-0 text-primary" aria-hidden="true" />
        <div className="flex-1">
          <h3 className="text-lg font-semibold">Nouveau : le système de mandats</h3>
          <p className="mt-1 text-sm">
            Déposez vos mandats exclusifs d'acquisition et de cession, découvrez les mandats compatibles de vos confrères
            et demandez une mise en relation en toute confidentialité.
            {premium ? "" : " En Freemium, vous pouvez créer jusqu'à 3 mandats par semestre."}
          </p>
        </div>
        <Button asChild>
          <Link to="/mandates">Découvrir les mandats</Link>
        </Button>
      </Card>
    </section>
  );
}
