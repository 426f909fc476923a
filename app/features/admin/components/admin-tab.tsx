// The frame every back-office tab shares: its title, what it is for, the load failure, its
// counters, and the search box with its buttons.
import { Search } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { StatTiles, type StatTile } from "./stat-tiles";

/** A tab of the back office; `failedMessage` when its data could not be read, `tiles` its counters. */
export function AdminTab({
  title,
  description,
  failedMessage,
  tiles,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  failedMessage?: string | null;
  tiles?: StatTile[] | null;
  children: React.ReactNode;
}) {
  const heading = (
    <h2 id="tab-title" className="text-xl font-semibold">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-6">
      {description === undefined ? (
        heading
      ) : (
        <div>
          {heading}
          <p className="mt-1 text-sm text-muted-foreground">{description}</p>
        </div>
      )}
      {failedMessage ? (
        <Alert variant="destructive">
          <AlertDescription>{failedMessage}</AlertDescription>
        </Alert>
      ) : null}
      {tiles ? <StatTiles items={tiles} /> : null}
      {children}
    </section>
  );
}

/** The free-text search of a tab's filter form (`q`). */
export function SearchField({ value, placeholder }: { value: string; placeholder: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor="q">Recherche</Label>
      <Input id="q" name="q" type="search" defaultValue={value} key={value} placeholder={placeholder} maxLength={100} />
    </div>
  );
}

/** The search and reset buttons of a tab's filter form. */
export function SearchButtons({ resetTo }: { resetTo: string }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      {/* Secondary: a list's search is not the view's primary action (one per view). */}
      <Button type="submit" variant="secondary">
        <Search aria-hidden="true" />
        Rechercher
      </Button>
      <Button asChild variant="outline">
        <Link to={resetTo}>Réinitialiser</Link>
      </Button>
    </div>
  );
}
