// A dialog whose open state lives in the URL (?nouveau=1, ?details=…, ?matching=…). Once
// JavaScript runs it is a Radix dialog (max 80 % of the viewport, scrollable); before that — or
// without JavaScript — the same content is a plain section of the page, because Radix renders
// dialogs in a portal that the server HTML does not have. Closing it navigates to `closeTo`.
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/lib/use-hydrated";

export function UrlDialog({
  id,
  title,
  description,
  closeTo,
  children,
  size = "lg",
  role,
  sheet = false,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  closeTo: string;
  children: ReactNode;
  size?: "md" | "lg" | "xl";
  role?: "alertdialog";
  /** On a phone, a full-screen sheet instead of a floating box (the matching panel). */
  sheet?: boolean;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const width = size === "xl" ? "max-w-4xl" : size === "lg" ? "max-w-3xl" : "max-w-lg";
  if (!hydrated) {
    return (
      <section aria-labelledby={`${id}-title`} className={cn("mx-auto my-6 w-full rounded-lg border-2 border-primary/30 bg-background p-4 shadow-sm sm:p-6", width)}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={`${id}-title`} className="text-lg font-semibold">
              {title}
            </h2>
            {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
          </div>
          <Link to={closeTo} className="inline-flex shrink-0 items-center gap-1 text-sm underline" preventScrollReset>
            <X className="h-4 w-4" aria-hidden="true" />
            Fermer
          </Link>
        </div>
        {children}
      </section>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) void navigate(closeTo, { preventScrollReset: true });
      }}
    >
      <DialogContent
        id={id}
        {...(role ? { role } : {})}
        className={cn(
          "max-h-[80vh] overflow-y-auto",
          width,
          sheet &&
            "max-sm:left-0 max-sm:top-0 max-sm:h-dvh max-sm:max-h-none max-sm:w-full max-sm:max-w-none max-sm:translate-x-0 max-sm:translate-y-0 max-sm:rounded-none max-sm:border-0",
        )}
        {...(description ? {} : { "aria-describedby": undefined })}
      >
        <DialogHeader className="pr-8">
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}
