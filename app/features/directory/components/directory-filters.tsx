import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Label, NativeSelect } from "~/components/ui/input";
import { DEPARTMENTS, PROFESSIONS, SECTORS } from "~/db/reference";
import type { DirectoryQuery } from "../directory.schema";

/**
 * The department, sector and profession selects (each with 'all') and the reset link, shared by
 * the public and the internal directory. Inside a GET form: works without JavaScript; with it,
 * `onChange` submits at once.
 */
export function DirectoryFilterFields({
  query,
  onChange,
  resetTo,
  sectorLabel = "Secteur",
}: {
  query: Pick<DirectoryQuery, "departement" | "secteur" | "profession">;
  onChange: () => void;
  resetTo: string;
  sectorLabel?: string;
}) {
  return (
    <>
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="departement">Département</Label>
        <NativeSelect id="departement" name="departement" defaultValue={query.departement ?? "all"} key={`d-${query.departement}`} onChange={onChange}>
          <option value="all">Tous les départements</option>
          {DEPARTMENTS.map((d) => (
            <option key={d.code} value={d.code}>
              {d.code} - {d.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="secteur">{sectorLabel}</Label>
        <NativeSelect id="secteur" name="secteur" defaultValue={query.secteur ?? "all"} key={`s-${query.secteur}`} onChange={onChange}>
          <option value="all">Tous les secteurs</option>
          {SECTORS.map((s) => (
            <option key={s.code} value={s.code}>
              {s.code} - {s.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="profession">Profession</Label>
        <NativeSelect id="profession" name="profession" defaultValue={query.profession ?? "all"} key={`p-${query.profession}`} onChange={onChange}>
          <option value="all">Toutes les professions</option>
          {PROFESSIONS.map((p) => (
            <option key={p.code} value={p.code}>
              {p.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex items-end">
        <Button asChild variant="outline" className="w-full">
          <Link to={resetTo}>Réinitialiser</Link>
        </Button>
      </div>
    </>
  );
}
