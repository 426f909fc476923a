import { useEffect } from "react";

/**
 * Registers public/sw.js (the offline page, nothing private kept) in production
 * builds only: in development it would serve stale assets across Vite's reloads.
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    const register = () => {
      navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {
        // An install that fails (private browsing, a refused storage) leaves the site as it is.
      });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }, []);
  return null;
}
