import { cn } from "~/lib/utils";

/**
 * The product's wordmark: a mark (two steps handing over, in ink and brass) and the name. The name
 * is the text of the link it sits in; the mark is decoration.
 */
export function Wordmark({ name, className, compact = false }: { name: string; className?: string; compact?: boolean }) {
  return (
    <span className={cn("flex min-w-0 items-center gap-2", className)} data-slot="wordmark">
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="var(--color-primary)" />
        <path d="M8 21h8v-5h8" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        <circle cx="24" cy="11" r="3" fill="var(--color-accent-soft)" />
      </svg>
      <span className={cn("truncate font-semibold tracking-tight text-primary", compact ? "text-body" : "text-section")}>{name}</span>
    </span>
  );
}
