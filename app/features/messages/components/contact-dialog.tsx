import { lazy, Suspense, useState } from "react";
import { Button } from "~/components/ui/button";

export type ContactActionData = { ok: true } | { ok: false; error: string };

export type ContactDialogProps = {
  professionalName: string;
  defaults?: Partial<Record<"fullName" | "email" | "subject" | "message", string>>;
};

// The dialog (Radix Dialog and the form, ≈ 10 KB gzip) is not part of the public profile's first
// load: it is fetched when the visitor points at or focuses the button, and opened on the click.
const loadPanel = () => import("./contact-dialog-panel");
const ContactDialogPanel = lazy(loadPanel);
const prefetch = () => {
  loadPanel().catch(() => {
    // Retried by the click.
  });
};

/** The 'Contacter ce professionnel' button and, once clicked, its dialog (contact-dialog-panel.tsx). */
export function ContactDialog(props: ContactDialogProps) {
  const [requested, setRequested] = useState(false);
  const button = (
    <Button size="lg" onClick={() => setRequested(true)} onPointerEnter={prefetch} onFocus={prefetch}>
      Contacter ce professionnel
    </Button>
  );
  if (!requested) return button;
  return (
    <Suspense fallback={button}>
      <ContactDialogPanel {...props} />
    </Suspense>
  );
}
