// The "Profil vérifié" mark: one mark whose disclosure lists what the team checked and
// when. A native <details>: keyboard-accessible, works on touch, and without JavaScript.
import { ShieldCheck } from "lucide-react";
import { VERIFIED_MARK_RULE, type VerificationMarkView } from "../verification-rules";

export function VerifiedMark({ mark, className }: { mark: VerificationMarkView; className?: string }) {
  return (
    <details className={`group relative inline-block text-sm ${className ?? ""}`} data-testid="verified-mark">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-full border border-emerald-300 bg-emerald-50 px-2.5 py-0.5 font-medium text-emerald-800 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden">
        <ShieldCheck className="h-4 w-4" aria-hidden="true" />
        Profil vérifié
      </summary>
      <div className="absolute left-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-md border bg-popover p-3 text-popover-foreground shadow-md">
        <p className="mb-2 font-medium">Vérifié par l’équipe du réseau&nbsp;:</p>
        <ul className="grid gap-1.5">
          {mark.lines.map((l) => (
            <li key={l.label} className="grid">
              <span>{l.label}</span>
              <span className="text-xs text-muted-foreground">le {l.checkedOn}</span>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-muted-foreground">{VERIFIED_MARK_RULE.short}</p>
      </div>
    </details>
  );
}
