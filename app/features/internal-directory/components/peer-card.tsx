import { Building2, MapPin, Star } from "lucide-react";
import { useId, useState } from "react";
import type * as React from "react";
import { Avatar } from "~/components/avatar";
import { memberCardTone } from "~/components/member-card";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { departmentName, sectorName } from "~/db/reference";
import { BADGE_LABELS } from "~/features/trust/badges";
import { INTERNAL_SECTOR_CHIP_MAX, sectorChips } from "~/features/directory/card-rules";
import { ProfileBadges } from "~/features/directory/components/profile-badges";
import { VerifiedMark } from "~/features/trust/components/verified-mark";
import { ResponsivenessLine } from "~/features/trust/components/responsiveness";
import { ratingSummaryLabel } from "~/features/trust/reputation-labels";
import { cn } from "~/lib/utils";
import type { InternalDirectoryRow } from "../internal-directory.server";

/** Up to 3 sector chips cut at 30 characters, then '+N autres' revealing the rest (title + button). */
function SectorChips({ codes }: { codes: string[] }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const names = codes.map((code) => sectorName(code));
  const chips = sectorChips(names, INTERNAL_SECTOR_CHIP_MAX);
  if (chips.shown.length === 0) return null;
  const hiddenNames = chips.hidden.join(", ");
  return (
    <ul id={listId} className="flex flex-wrap gap-1.5" aria-label="Secteurs d'expertise">
      {chips.shown.map((label, i) => (
        <li key={`${codes[i]}-${i}`}>
          <Badge variant="outline" className="font-normal" title={names[i]}>
            {label}
          </Badge>
        </li>
      ))}
      {expanded
        ? chips.hidden.map((name, i) => (
            <li key={`hidden-${i}`}>
              <Badge variant="outline" className="font-normal">
                {name}
              </Badge>
            </li>
          ))
        : null}
      {chips.moreLabel && !expanded ? (
        <li>
          <button
            type="button"
            title={hiddenNames}
            aria-label={`${chips.moreLabel}\u00a0: ${hiddenNames}`}
            aria-controls={listId}
            aria-expanded={false}
            onClick={() => setExpanded(true)}
            className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Badge variant="secondary" className="cursor-help font-normal">
              {chips.moreLabel}
            </Badge>
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-baseline justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** A peer card of the internal directory (spec §2 "Internal directory"). */
export function PeerCard({ peer, contact }: { peer: InternalDirectoryRow; contact: React.ReactNode }) {
  const fullName = `${peer.firstName} ${peer.lastName}`;
  const location = [peer.locationCity, peer.locationDepartment ? `${departmentName(peer.locationDepartment)} (${peer.locationDepartment})` : null]
    .filter(Boolean)
    .join(", ");
  return (
    <Card className={cn("flex h-full min-w-0 flex-col gap-4 p-5", memberCardTone(peer.premium))}>
      <div className="flex items-start gap-4">
        <Avatar firstName={peer.firstName} lastName={peer.lastName} photoUrl={peer.photoUrl} colourKey={peer.id} />
        <div className="min-w-0 flex-1">
          <h3 className="text-lg font-semibold leading-tight break-words">{fullName}</h3>
          <p className="text-sm font-medium text-primary">{peer.professionLabel}</p>
          <p className="flex items-center gap-1 text-sm text-muted-foreground">
            <Building2 className="h-4 w-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{peer.company}</span>
          </p>
          {location ? (
            <p className="flex items-center gap-1 text-sm text-muted-foreground">
              <MapPin className="h-4 w-4 shrink-0" aria-hidden="true" />
              <span>{location}</span>
            </p>
          ) : null}
        </div>
        {peer.logoUrl ? (
          <img src={peer.logoUrl} alt={`Logo ${peer.company}`} className="h-12 w-12 shrink-0 rounded object-contain" width={48} height={48} loading="lazy" />
        ) : null}
      </div>
      {peer.membershipType === "founding_member" ? (
        <Badge variant="accent" className="self-start">
          {BADGE_LABELS["founding-member"]}
        </Badge>
      ) : peer.premium ? (
        <Badge variant="accent" className="self-start">
          Premium
        </Badge>
      ) : null}
      {peer.verification ? <VerifiedMark mark={peer.verification} className="self-start" /> : null}
      {peer.ratings ? (
        <p className="flex items-center gap-1 text-sm" data-testid="peer-ratings">
          <Star className="h-4 w-4 shrink-0 fill-amber-400 text-amber-500" aria-hidden="true" />
          <span>
            <span className="sr-only">Évaluations des confrères&nbsp;: </span>
            {ratingSummaryLabel(peer.ratings.average, peer.ratings.count)}
          </span>
        </p>
      ) : null}
      <ResponsivenessLine value={peer.responsiveness} />
      <ProfileBadges badges={peer.badges} />
      <SectorChips codes={peer.sectors} />
      {peer.premium && peer.internalPresentation ? (
        <p className="line-clamp-3 break-words text-sm" title={peer.internalPresentation}>
          {peer.internalPresentation}
        </p>
      ) : null}
      <div className="grid gap-3 rounded-md bg-muted/60 p-3 text-sm sm:grid-cols-2">
        <div>
          <p className="mb-1 font-medium">Mandats actifs</p>
          <dl className="grid gap-0.5">
            <Stat label="Acquéreur" value={peer.activeBuyerMandates} />
            <Stat label="Cédant" value={peer.activeSellerMandates} />
          </dl>
        </div>
        <div>
          <p className="mb-1 font-medium">12 derniers mois</p>
          <dl className="grid gap-0.5">
            <Stat label="Acquéreur" value={peer.last12MonthsBuyerMandates} />
            <Stat label="Cédant" value={peer.last12MonthsSellerMandates} />
          </dl>
        </div>
      </div>
      <div className="mt-auto pt-1">{contact}</div>
    </Card>
  );
}
