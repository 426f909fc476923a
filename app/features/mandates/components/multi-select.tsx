// A searchable multi-select with removable chips (sectors and départements of a
// buyer mandate). The base is a list of checkboxes named like the field, so the form works
// before JavaScript runs; once hydrated, a filter narrows the list (a live count says how many
// remain), and each selected choice shows as a chip, a button 'Retirer …'.
import { X } from "lucide-react";
import { useId, useState } from "react";
import { Checkbox, FieldError, Input, Label } from "~/components/ui/input";
import { useHydrated } from "~/lib/use-hydrated";
import type { OptionGroup } from "../regions";
import { asArray, type ListField } from "./mandate-fields";

/** Lower case without accents, for a filter that finds 'Île' when typing 'ile'. */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** The options of `groups` whose label (or group label) contains `query`, groups left empty removed. */
export function filterGroups(groups: readonly OptionGroup[], query: string): OptionGroup[] {
  const q = foldText(query.trim());
  if (!q) return [...groups];
  return groups
    .map((g) => (foldText(g.label).includes(q) ? g : { ...g, options: g.options.filter((o) => foldText(o.label).includes(q)) }))
    .filter((g) => g.options.length > 0);
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n > 1 ? many : one}`;
}

export function MultiSelect({
  field,
  legend,
  groups,
  filterLabel,
  noun,
}: {
  field: ListField;
  legend: string;
  groups: readonly OptionGroup[];
  filterLabel: string;
  /** Singular and plural of what is chosen, for the count: ['secteur', 'secteurs']. */
  noun: [string, string];
}) {
  const { id, name, errors, errorId } = field;
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string[]>(() => [...new Set(asArray(field.initialValue))]);
  const [query, setQuery] = useState("");
  const uid = useId();
  const labels = new Map(groups.flatMap((g) => g.options.map((o) => [o.value, o.label] as const)));
  const visible = new Set(filterGroups(groups, query).flatMap((g) => g.options.map((o) => o.value)));
  const toggle = (value: string, on: boolean) =>
    setSelected((current) => (on ? (current.includes(value) ? current : [...current, value]) : current.filter((v) => v !== value)));
  const listId = `${id}-list`;
  const countId = `${id}-count`;

  return (
    <fieldset id={id} className="grid gap-3" aria-describedby={errors?.length ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {selected.length > 0 ? (
        <ul aria-label={`${legend}\u00a0: sélection`} className="flex flex-wrap gap-2">
          {selected.map((value) => (
            <li key={value}>
              {hydrated ? (
                <button
                  type="button"
                  onClick={() => toggle(value, false)}
                  className="inline-flex min-h-8 items-center gap-1 rounded-full bg-blue-50 py-1 pl-3 pr-2 text-left text-xs font-medium text-blue-900 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-ring"
                  aria-label={`Retirer ${labels.get(value) ?? value}`}
                >
                  <span>{labels.get(value) ?? value}</span>
                  <X className="h-3 w-3 shrink-0" aria-hidden="true" />
                </button>
              ) : (
                <span className="inline-flex rounded-full bg-blue-50 px-3 py-1 text-xs font-medium text-blue-900">{labels.get(value) ?? value}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {hydrated ? (
        <div className="grid gap-1">
          <Label htmlFor={`${uid}-filter`}>{filterLabel}</Label>
          <Input
            id={`${uid}-filter`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter in the filter must not submit the form.
              if (e.key === "Enter") e.preventDefault();
            }}
            aria-controls={listId}
            aria-describedby={countId}
            autoComplete="off"
          />
        </div>
      ) : null}
      <p id={countId} role="status" className="text-xs text-muted-foreground">
        {plural(selected.length, `${noun[0]} sélectionné`, `${noun[1]} sélectionnés`)}
        {hydrated && query.trim() ? ` · ${plural(visible.size, "résultat", "résultats")}` : ""}
      </p>
      <div id={listId} className="grid max-h-80 gap-3 overflow-y-auto rounded-md border p-2">
        {groups.map((group, gi) => {
          const shown = group.options.some((o) => visible.has(o.value));
          const headingId = `${uid}-g${gi}`;
          return (
            <div key={group.label} role="group" aria-labelledby={headingId} hidden={!shown}>
              <p id={headingId} className="px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                {group.label}
              </p>
              <div className="grid gap-0.5 sm:grid-cols-2">
                {group.options.map((o) => (
                  <label key={o.value} hidden={!visible.has(o.value)} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-muted">
                    <Checkbox
                      name={name}
                      value={o.value}
                      checked={selected.includes(o.value)}
                      onChange={(e) => toggle(o.value, e.currentTarget.checked)}
                      className="mt-0.5"
                    />
                    <span>{o.label}</span>
                  </label>
                ))}
              </div>
            </div>
          );
        })}
        {hydrated && visible.size === 0 ? <p className="p-2 text-sm text-muted-foreground">Aucun résultat pour «&nbsp;{query.trim()}&nbsp;».</p> : null}
      </div>
      <FieldError id={errorId} errors={errors} />
    </fieldset>
  );
}
