// A thin bar at the top of the window while a navigation or a submission takes longer than a
// blink: without it a slow page leaves the old one frozen with no sign of life.
import { useEffect, useState } from "react";
import { useFetchers, useNavigation } from "react-router";

/** Below this, nothing shows: a bar that flashes on every quick click is noise. */
const DELAY_MS = 150;

export function NavigationProgress() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state === "submitting");
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = window.setTimeout(() => setShown(true), DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);
  if (!shown) return null;
  return (
    // A sign for the eye only: it sits outside the page's landmarks, and a screen reader hears the
    // new page (or the form's answer) when it comes.
    <div
      aria-hidden="true"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5 overflow-hidden bg-accent-soft"
      data-slot="navigation-progress"
    >
      <div className="h-full w-2/5 animate-progress bg-accent motion-reduce:w-full motion-reduce:animate-none" />
    </div>
  );
}
