import type * as React from "react";
import { Crown } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { cn } from "~/lib/utils";

/** 'Passez Premium': shown to freemium members where a Premium feature is held back. */
export function PremiumUpsellCard({ children, className, headingLevel = 3 }: { children: React.ReactNode; className?: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <Card className={cn("flex flex-col gap-3 border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-center", className)}>
      <Crown className="h-8 w-8 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="flex-1">
        <Heading className="text-lg font-semibold text-amber-950">Passez Premium</Heading>
        <div className="text-sm text-amber-950">{children}</div>
      </div>
      <Button asChild variant="accent">
        <Link to="/premium">Découvrir Premium</Link>
      </Button>
    </Card>
  );
}
