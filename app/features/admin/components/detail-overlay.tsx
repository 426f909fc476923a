// The detail overlay of a back-office table: a dialog once JavaScript runs, a plain panel before
// (Radix renders dialogs in a portal, which does not exist in the server HTML). Its URL carries
// the open item (?profil=…, ?deal=…), so closing it is a navigation back to the list.
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { useHydrated } from "~/lib/use-hydrated";

export function DetailOverlay({
  title,
  description,
  closeTo,
  children,
}: {
  title: string;
  description?: string;
  /** The list URL without the open item. */
  closeTo: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  if (!hydrated) {
    return (
      <Card className="mt-6 border-primary/40" aria-labelledby="detail-title" role="region">
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div>
            <h3 id="detail-title" className="text-lg font-semibold">
              {title}
            </h3>
            {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
          </div>
          <Link to={closeTo} className="inline-flex items-center gap-1 text-sm underline">
            <X className="h-4 w-4" aria-hidden="true" />
            Fermer
          </Link>
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) void navigate(closeTo, { preventScrollReset: true, replace: true });
      }}
    >
      <DialogContent className="max-w-2xl" {...(description ? {} : { "aria-describedby": undefined })}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        <div className="grid gap-4">{children}</div>
      </DialogContent>
    </Dialog>
  );
}
