import { Award, BadgeCheck, Star } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { BADGE_LABELS, type BadgeKind } from "../badges";

const ICONS = { "founding-member": Star, "deals-certified": BadgeCheck, expert: Award } as const;
const VARIANTS = { "founding-member": "accent", "deals-certified": "success", expert: "secondary" } as const;

export function ProfileBadges({ badges }: { badges: BadgeKind[] }) {
  if (badges.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Badges">
      {badges.map((b) => {
        const Icon = ICONS[b];
        return (
          <li key={b}>
            <Badge variant={VARIANTS[b]} className="gap-1">
              <Icon className="h-3 w-3" aria-hidden="true" />
              {BADGE_LABELS[b]}
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}
