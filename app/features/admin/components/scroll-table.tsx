import type { ReactNode } from "react";

/** A table that scrolls sideways on narrow screens; the region is focusable for keyboard users. */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="scroll-cue mt-4 overflow-x-auto rounded-lg border focus-visible:outline-2 focus-visible:outline-ring">
      <table className="w-full min-w-[44rem] text-left text-sm">{children}</table>
    </div>
  );
}
