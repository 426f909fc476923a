import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** Previous / next links; `href(page)` builds the URL of a page with the current filters. */
export function Pagination({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-6 flex flex-wrap items-center justify-center gap-3">
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page - 1)} rel="prev" preventScrollReset>
            Page précédente
          </Link>
        </Button>
      ) : null}
      <p className="text-sm text-muted-foreground">
        Page {page} sur {pageCount}
      </p>
      {page < pageCount ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page + 1)} rel="next" preventScrollReset>
            Page suivante
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
