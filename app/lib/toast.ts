// Toasts without sonner in the first page load: sonner (≈ 9 KB gzip, most of it the <Toaster>) is
// imported on the first toast of the visit, and the root mounts its <Toaster> at that moment
// (app/components/lazy-toaster.tsx). sonner hands the toasts created before its Toaster subscribed
// to it when it does, so nothing is lost. Same calls as sonner's `toast.success/error/info`.
import { useSyncExternalStore } from "react";
import type { toast as sonnerToast } from "sonner";

type Kind = "success" | "error" | "info";
type ToastArgs = Parameters<typeof sonnerToast.success>;

let requested = false;
const listeners = new Set<() => void>();

function show(kind: Kind, ...args: ToastArgs) {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  import("sonner")
    .then(({ toast }) => toast[kind](...args))
    .catch(() => {
      // The chunk could not be loaded (offline, new deployment): the toast is only a notice.
    });
}

export const toast = {
  success: (...args: ToastArgs) => show("success", ...args),
  error: (...args: ToastArgs) => show("error", ...args),
  info: (...args: ToastArgs) => show("info", ...args),
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once a toast was asked for during this visit (always false on the server). */
export function useToastRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
}
