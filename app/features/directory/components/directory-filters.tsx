import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Label, NativeSelect } from "~/components/ui/input";
import { countLabel } from "~/lib/text";
import { directoryQueryString } from "../directory-query";
import type { DirectoryQuery } from "../directory.schema";
import type { DirectoryFilterOptions, FilterOption } from "../filter-options";

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
 * `onChange` submits at once. The option lists are given (app/features/directory/filter-options.ts):
 * the public directory's from its loader, the member directory's from its own bundle.
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

/** The result count ('Chargement...' while the next page loads) and 'Page N sur M', announced politely. */
export function DirectoryResultCount({
  loading,
  total,
  noun,
  page,
  pageCount,
  className,
}: {
  loading: boolean;
  total: number;
  /** Singular and plural of the count's label, e.g. ['confrère trouvé', 'confrères trouvés']. */
  noun: readonly [string, string];
  page: number;
  pageCount: number;
  className: string;
}) {
  return (
    <div className={className} aria-live="polite">
      <p className="font-medium" data-testid="result-count">
        {loading ? "Chargement..." : countLabel(total, noun[0], noun[1])}
      </p>
      {pageCount > 1 ? (
        <p className="text-sm text-muted-foreground">
          Page {page} sur {pageCount}
        </p>
      ) : null}
    </div>
  );
}

/** 'Page précédente' / 'Page suivante' links keeping the filters, under `base`. */
export function DirectoryPagination({
  base,
  query,
  page,
  pageCount,
  className,
}: {
  base: string;
  query: DirectoryQuery;
  page: number;
  pageCount: number;
  className: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className={className}>
      {page > 1 ? (
        <Button asChild variant="outline">
          <Link to={`${base}${directoryQueryString({ ...query, page: page - 1 })}`} rel="prev">
            Page précédente
          </Link>
        </Button>
      ) : null}
      {page < pageCount ? (
        <Button asChild variant="outline">
          <Link to={`${base}${directoryQueryString({ ...query, page: page + 1 })}`} rel="next">
            Page suivante
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
