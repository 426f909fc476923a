import { Award, BadgeCheck, Handshake, Lock, Star, TrendingUp, Trophy } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { ALL_BADGE_LABELS, BADGE_MEANINGS, type BadgeKind } from "~/features/trust/badges";

const ICONS = {
  "founding-member": Star,
  "deals-certified": BadgeCheck,
  expert: Award,
  "fair-player": Handshake,
  "top-performer": Trophy,
  confidential: Lock,
  "high-success-rate": TrendingUp,
} as const;
const VARIANTS = {
  "founding-member": "accent",
  "deals-certified": "success",
  expert: "secondary",
  "fair-player": "success",
  "top-performer": "accent",
  confidential: "secondary",
  "high-success-rate": "success",
} as const;

/** The badges of a profile; each explains itself (title on hover, the same text for screen readers). */
export function ProfileBadges({ badges }: { badges: BadgeKind[] }) {
  if (badges.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Badges">
      {badges.map((b) => {
        const Icon = ICONS[b];
        return (
          <li key={b}>
            <Badge variant={VARIANTS[b]} className="cursor-help gap-1" title={BADGE_MEANINGS[b]} data-badge={b}>
              <Icon className="h-3 w-3" aria-hidden="true" />
              {ALL_BADGE_LABELS[b]}
              <span className="sr-only"> — {BADGE_MEANINGS[b]}</span>
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}
