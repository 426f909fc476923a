// Small inline-SVG charts for the dashboard (no chart library): grouped vertical bars and
// horizontal bars. The SVGs have no viewBox: bar positions are percentages of the width and text
// keeps its CSS size, so labels stay readable from 360 px to a wide screen. Each chart has a data
// table for screen readers and for those who prefer numbers.
import { niceMax } from "../statistics";

export type Series = { key: string; label: string; color: string };
type Category = { key: string; label: string; longLabel: string };
type Values = Record<string, Record<string, number>>;

const AXIS = "#64748b";

function maxOf(categories: Category[], series: Series[], values: Values) {
  return niceMax(Math.max(0, ...categories.flatMap((c) => series.map((s) => values[c.key]?.[s.key] ?? 0))));
}

export function GroupedBarChart({
  id,
  title,
  description,
  categories,
  series,
  values,
  rowHeader = "Mois",
}: {
  id: string;
  title: string;
  description: string;
  categories: Category[];
  series: Series[];
  /** values[category][series] */
  values: Values;
  rowHeader?: string;
}) {
  const height = 160;
  const max = maxOf(categories, series, values);
  const band = 100 / categories.length;
  const barW = (band * 0.72) / series.length;
  const h = (v: number) => (v / max) * (height - 4);
  return (
    <figure className="grid gap-2">
      <div className="grid grid-cols-[1.75rem_1fr] gap-1">
        <div className="flex flex-col justify-between text-right text-xs text-muted-foreground" aria-hidden="true" style={{ height }}>
          <span>{max}</span>
          <span>0</span>
        </div>
        <svg width="100%" height={height} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="block overflow-visible">
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          <line x1="0" x2="100%" y1="1" y2="1" stroke="#e2e8f0" />
          <line x1="0" x2="100%" y1={height / 2} y2={height / 2} stroke="#e2e8f0" />
          {categories.map((c, i) =>
            series.map((s, j) => {
              const v = values[c.key]?.[s.key] ?? 0;
              const x = i * band + (band - barW * series.length) / 2 + j * barW;
              return (
                <rect key={`${c.key}-${s.key}`} x={`${x}%`} y={height - h(v)} width={`${barW * 0.92}%`} height={h(v)} fill={s.color} rx="1">
                  <title>{`${c.longLabel} — ${s.label}\u00a0: ${v}`}</title>
                </rect>
              );
            }),
          )}
          <line x1="0" x2="100%" y1={height - 0.5} y2={height - 0.5} stroke={AXIS} />
        </svg>
        <span aria-hidden="true" />
        <div className="grid text-center text-[11px] leading-tight text-muted-foreground" style={{ gridTemplateColumns: `repeat(${categories.length}, minmax(0, 1fr))` }} aria-hidden="true">
          {categories.map((c) => (
            <span key={c.key} className="truncate">
              {/* Twelve labels on a phone: the initial only. */}
              <span className="sm:hidden">{c.label.charAt(0).toUpperCase()}</span>
              <span className="hidden sm:inline">{c.label}</span>
            </span>
          ))}
        </div>
      </div>
      <Legend series={series} />
      <DataTable caption={title} rowHeader={rowHeader} categories={categories} series={series} values={values} />
    </figure>
  );
}

export function HorizontalBarChart({
  id,
  title,
  description,
  categories,
  series,
  values,
  rowHeader = "Statut",
}: {
  id: string;
  title: string;
  description: string;
  categories: Category[];
  series: Series[];
  values: Values;
  rowHeader?: string;
}) {
  const max = maxOf(categories, series, values);
  const rowH = 18;
  return (
    <figure className="grid gap-2">
      <div role="img" aria-labelledby={`${id}-title ${id}-desc`} className="grid gap-3">
        <span id={`${id}-title`} className="sr-only">
          {title}
        </span>
        <span id={`${id}-desc`} className="sr-only">
          {description}
        </span>
        {categories.map((c) => (
          <div key={c.key} className="grid grid-cols-[6.5rem_1fr] items-center gap-2" aria-hidden="true">
            <span className="text-sm">{c.label}</span>
            <svg width="100%" height={series.length * rowH} className="block overflow-visible">
              {series.map((s, j) => {
                const v = values[c.key]?.[s.key] ?? 0;
                // Leave room for the value at the end of the longest bar.
                const pct = (v / max) * 85;
                return (
                  <g key={s.key}>
                    <rect x="0" y={j * rowH} width={`${Math.max(pct, v > 0 ? 0.5 : 0)}%`} height={rowH - 4} fill={s.color} rx="2">
                      <title>{`${c.longLabel} — ${s.label}\u00a0: ${v}`}</title>
                    </rect>
                    <text x={`${pct}%`} dx="6" y={j * rowH + rowH - 6} fontSize="12" fill={AXIS}>
                      {v}
                    </text>
                  </g>
                );
              })}
            </svg>
          </div>
        ))}
      </div>
      <Legend series={series} />
      <DataTable caption={title} rowHeader={rowHeader} categories={categories} series={series} values={values} />
    </figure>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <ul className="flex flex-wrap gap-4 text-sm" aria-hidden="true">
      {series.map((s) => (
        <li key={s.key} className="flex items-center gap-2">
          <span className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: s.color }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function DataTable({
  caption,
  rowHeader,
  categories,
  series,
  values,
}: {
  caption: string;
  rowHeader: string;
  categories: Category[];
  series: Series[];
  values: Values;
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted-foreground underline">Afficher les données du graphique</summary>
      <div className="scroll-cue mt-2 overflow-x-auto">
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="border-b p-1.5">
                {rowHeader}
              </th>
              {series.map((s) => (
                <th key={s.key} scope="col" className="border-b p-1.5 text-right">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.key}>
                <th scope="row" className="border-b p-1.5 font-normal">
                  {c.longLabel}
                </th>
                {series.map((s) => (
                  <td key={s.key} className="border-b p-1.5 text-right tabular-nums">
                    {values[c.key]?.[s.key] ?? 0}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
