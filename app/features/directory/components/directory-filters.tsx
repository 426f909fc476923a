import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Label, NativeSelect } from "~/components/ui/input";
import type { DirectoryQuery } from "../directory.schema";
import type { DirectoryFilterOptions, FilterOption } from "../labels.server";

function Options({ options }: { options: FilterOption[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

/**
 * The department, sector and profession selects (each with 'all') and the reset link, shared by
 * the public and the internal directory. Inside a GET form: works without JavaScript; with it,
 * `onChange` submits at once. The option lists come from the loader (directoryFilterOptions):
 * the reference tables stay on the server.
 */
export function DirectoryFilterFields({
  query,
  options,
  onChange,
  resetTo,
  sectorLabel = "Secteur",
}: {
  query: Pick<DirectoryQuery, "departement" | "secteur" | "profession">;
  options: DirectoryFilterOptions;
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
          <Options options={options.departments} />
        </NativeSelect>
      </div>
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="secteur">{sectorLabel}</Label>
        <NativeSelect id="secteur" name="secteur" defaultValue={query.secteur ?? "all"} key={`s-${query.secteur}`} onChange={onChange}>
          <option value="all">Tous les secteurs</option>
          <Options options={options.sectors} />
        </NativeSelect>
      </div>
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="profession">Profession</Label>
        <NativeSelect id="profession" name="profession" defaultValue={query.profession ?? "all"} key={`p-${query.profession}`} onChange={onChange}>
          <option value="all">Toutes les professions</option>
          <Options options={options.professions} />
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
