import { X } from "lucide-react";
import { useState } from "react";
import { Checkbox, FieldError } from "~/components/ui/input";
import { SECTORS, sectorName } from "~/db/reference";
import { useHydrated } from "~/lib/use-hydrated";

const CHIP_MAX = 40;

function chipLabel(code: string) {
  const label = `${code} - ${sectorName(code)}`;
  return label.length > CHIP_MAX ? `${label.slice(0, CHIP_MAX - 1)}…` : label;
}

/**
 * Multi-select of activity sectors (NAF sections). The base is a list of checkboxes, which
 * works without JavaScript; once hydrated, the selection also shows as chips that can be removed.
 */
export function SectorPicker({ name, defaultValue, errors }: { name: string; defaultValue: readonly string[]; errors?: string[] }) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string[]>(() => [...defaultValue]);
  const toggle = (code: string, on: boolean) =>
    setSelected((current) => (on ? (current.includes(code) ? current : [...current, code]) : current.filter((c) => c !== code)));
  const errorId = `${name}-error`;
  return (
    <fieldset className="grid gap-3" aria-describedby={errors?.length ? errorId : `${name}-hint`}>
      <legend className="text-sm font-medium">Secteurs d’activité</legend>
      <p id={`${name}-hint`} className="-mt-1 text-xs text-muted-foreground">
        Cochez les secteurs (nomenclature NAF) dans lesquels vous intervenez.
      </p>
      <div aria-live="polite">
        {selected.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun secteur sélectionné.</p>
        ) : (
          <ul aria-label="Secteurs sélectionnés" className="flex flex-wrap gap-2">
            {selected.map((code) => (
              <li key={code} className="inline-flex items-center gap-1 rounded-full bg-blue-50 py-1 pl-3 pr-1 text-xs font-medium text-blue-900">
                <span title={`${code} - ${sectorName(code)}`}>{chipLabel(code)}</span>
                {hydrated ? (
                  <button
                    type="button"
                    onClick={() => toggle(code, false)}
                    className="grid h-6 w-6 place-items-center rounded-full hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-ring"
                    aria-label={`Retirer le secteur ${sectorName(code)}`}
                  >
                    <X className="h-3 w-3" aria-hidden="true" />
                  </button>
                ) : (
                  <span className="w-2" />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="grid max-h-72 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
        {SECTORS.map((sector) => (
          <label key={sector.code} className="flex items-start gap-2 rounded p-2 text-sm hover:bg-muted">
            <Checkbox
              name={name}
              value={sector.code}
              checked={selected.includes(sector.code)}
              onChange={(e) => toggle(sector.code, e.target.checked)}
              className="mt-0.5"
            />
            <span>
              <span className="font-semibold">{sector.code}</span> - {sector.name}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} errors={errors} />
    </fieldset>
  );
}
