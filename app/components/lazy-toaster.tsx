import { lazy, Suspense } from "react";
import { useToastRequested } from "~/lib/toast";

const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

/** sonner's <Toaster>, loaded and mounted with the first toast of the visit (app/lib/toast.ts). */
export function LazyToaster() {
  const requested = useToastRequested();
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      {/* Default (non-rich) colours: dark text on white passes contrast checks; errors in red. */}
      <Toaster position="top-center" closeButton toastOptions={{ classNames: { error: "!text-destructive", title: "font-semibold" } }} />
    </Suspense>
  );
}
