const numberFormatter = new Intl.NumberFormat("fr-FR");

/** The counters above a table (total, pending, …). */
export function StatTiles({ items }: { items: Array<{ label: string; value: number }> }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {items.map((item) => (
        <div key={item.label} className="rounded-lg border bg-background p-4">
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="mt-1 text-2xl font-semibold">{numberFormatter.format(item.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
