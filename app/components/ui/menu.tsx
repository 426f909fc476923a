// A menu of secondary actions (the page template's « Plus d’actions », the account menu): a
// <details> disclosure, so that it opens before JavaScript loads and with the keyboard.
import { MoreHorizontal } from "lucide-react";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { cn } from "~/lib/utils";

/**
 * A <details> that, once hydrated, also closes after a navigation, on Escape (focus back on its
 * summary) and on a click outside.
 */
export function useDisclosure() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // Not on the first render: a member may open the menu before the page is hydrated.
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const el = ref.current;
      if (event.key !== "Escape" || !el?.open) return;
      el.open = false;
      el.querySelector("summary")?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const el = ref.current;
      if (el?.open && event.target instanceof Node && !el.contains(event.target)) el.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, []);
  return ref;
}

/** The class of one item in a menu (a link, or a form's button). */
export const menuItemClass =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-body hover:bg-muted focus-visible:bg-muted [&_svg]:size-4 [&_svg]:shrink-0";

/** Secondary actions behind one button: each child is one item (use menuItemClass). */
export function ActionMenu({ label = "Plus d’actions", children, className }: { label?: string; children: React.ReactNode; className?: string }) {
  const ref = useDisclosure();
  return (
    <details ref={ref} className={cn("relative", className)} data-slot="action-menu">
      <summary className="inline-flex min-h-10 cursor-pointer list-none items-center gap-2 rounded-md border border-input bg-background px-3 text-body font-medium hover:bg-muted [&::-webkit-details-marker]:hidden">
        <MoreHorizontal className="h-4 w-4" aria-hidden="true" />
        <span>{label}</span>
      </summary>
      <div className="absolute right-0 z-30 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-lg border bg-background p-1 shadow-lg">
        <ul className="flex flex-col">{Array.isArray(children) ? children.map((c, i) => (c ? <li key={i}>{c}</li> : null)) : <li>{children}</li>}</ul>
      </div>
    </details>
  );
}
