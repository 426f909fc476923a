import { Link } from "react-router";
import { cn } from "~/lib/utils";

const numberFormatter = new Intl.NumberFormat("fr-FR");

export type StatTile = {
  label: string;
  value: number;
  /** The list filtered on this counter: the tile is then a link. */
  href?: string;
  current?: boolean;
};

/** The counters above a table (total, pending, …); a counter with `href` filters the list. */
export function StatTiles({ items }: { items: StatTile[] }) {
  const box = "block h-full rounded-lg border bg-background p-4";
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Compteurs">
      {items.map((item) => {
        const body = (
          <>
            <span className="block text-sm text-muted-foreground">{item.label}</span>
            <span className="mt-1 block text-2xl font-semibold">{numberFormatter.format(item.value)}</span>
          </>
        );
        return (
          <li key={item.label}>
            {item.href ? (
              <Link
                to={item.href}
                preventScrollReset
                aria-current={item.current ? "page" : undefined}
                className={cn(box, "hover:bg-muted", item.current && "border-primary ring-1 ring-primary")}
              >
                {body}
              </Link>
            ) : (
              <div className={box}>{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
