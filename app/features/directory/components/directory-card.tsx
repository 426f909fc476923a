import { Building2, MapPin } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "~/components/avatar";
import { memberCardTone } from "~/components/member-card";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { cn } from "~/lib/utils";
import type { CardSectors, DirectoryCard as Card_ } from "../directory.server";
import { VerifiedMark } from "~/features/trust/components/verified-mark";
import { ProfileBadges } from "./profile-badges";

function Location({ city, department }: { city: string | null; department: string | null }) {
  if (!city && !department) return null;
  return (
    <p className="flex items-center gap-1 text-sm text-muted-foreground">
      <MapPin className="h-4 w-4" aria-hidden="true" />
      {[city, department ? `(${department})` : null].filter(Boolean).join(" ")}
    </p>
  );
}

/** The chips as the loader cut them (card-rules: 3 at most, then '+N autres'). */
function SectorList({ sectors }: { sectors: CardSectors }) {
  if (sectors.shown.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Secteurs d'expertise">
      {sectors.shown.map((s, i) => (
        <li key={`${s.label}-${i}`}>
          <Badge variant="outline" className="font-normal" title={s.name}>
            {s.label}
          </Badge>
        </li>
      ))}
      {sectors.more ? (
        <li>
          <Badge variant="secondary" className="font-normal" title={sectors.more.names}>
            {sectors.more.label}
          </Badge>
        </li>
      ) : null}
    </ul>
  );
}

export function DirectoryCard({ card }: { card: Card_ }) {
  const fullName = `${card.firstName} ${card.lastName}`;
  const href = `/consultant/${card.slug}`;
  const excerpt = card.presentation;
  return (
    <Card className={cn("flex h-full min-w-0 flex-col gap-4 p-5", memberCardTone(card.premium))}>
      <div className="flex items-start gap-4">
        <Avatar firstName={card.firstName} lastName={card.lastName} photoUrl={card.photoUrl} colourKey={card.id} />
        <div className="min-w-0 flex-1">
          <h2 className="break-words text-lg font-semibold leading-tight">
            <Link to={href} className="hover:underline">
              {fullName}
            </Link>
          </h2>
          <p className="text-sm font-medium text-primary">{card.professionLabel}</p>
          <p className="flex items-start gap-1 text-sm text-muted-foreground">
            <Building2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">{card.company}</span>
          </p>
          <Location city={card.locationCity} department={card.locationDepartment} />
        </div>
        {card.premium && card.logoUrl ? (
          <img src={card.logoUrl} alt={`Logo ${card.company}`} className="h-12 w-12 shrink-0 rounded object-contain" width={48} height={48} loading="lazy" />
        ) : null}
      </div>
      {card.verification ? <VerifiedMark mark={card.verification} className="self-start" /> : null}
      <ProfileBadges badges={card.badges} />
      {excerpt?.text ? (
        <p className="break-words text-sm text-foreground">
          {excerpt.text}{" "}
          {excerpt.truncated ? (
            <Link to={href} className="font-medium text-primary hover:underline" aria-label={`Lire la suite de la présentation de ${fullName}`}>
              Lire la suite
            </Link>
          ) : null}
        </p>
      ) : null}
      <SectorList sectors={card.sectors} />
      {card.premium && card.deals.length > 0 ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold">Transactions certifiées</h3>
          <ul className="space-y-1 text-sm text-muted-foreground">
            {card.deals.map((d, i) => (
              <li key={i}>
                {d.year} · {d.sectorName} · {d.title}
              </li>
            ))}
          </ul>
          {card.moreDealsLabel ? <p className="mt-1 text-sm font-medium text-primary">{card.moreDealsLabel}</p> : null}
        </div>
      ) : null}
      <div className="mt-auto pt-2">
        <Button asChild variant="outline" className="w-full">
          <Link to={href} aria-label={`Voir le profil de ${fullName}`}>
            Voir le profil
          </Link>
        </Button>
      </div>
    </Card>
  );
}
