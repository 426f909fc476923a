import { Sparkles } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** Shown to freemium members on the profile tab (spec §2: card linking to /premium). */
export function PremiumUpsell() {
  return (
    <aside aria-labelledby="premium-upsell-title" className="rounded-lg border border-amber-200 bg-amber-50 p-6 text-amber-950">
      <h3 id="premium-upsell-title" className="flex items-center gap-2 text-lg font-semibold">
        <Sparkles className="h-5 w-5" aria-hidden="true" />
        Enrichissez votre profil avec Premium
      </h3>
      <p className="mt-2 text-sm">
        Présentation détaillée sur votre profil public, présentation réservée à vos confrères, logo de votre cabinet,
        photo de profil et références M&amp;A certifiées&nbsp;: les membres Premium sont mis en avant dans les annuaires.
      </p>
      <Button asChild variant="accent" className="mt-4">
        <Link to="/premium">Découvrir Premium</Link>
      </Button>
    </aside>
  );
}
