// The browser side of the live notifications: ONE EventSource per tab, shared by every bell or
// list on the page (refcounted), with reconnection (the browser's own after a clean end, ours
// with backoff after a refusal) and a polling fallback when streams keep failing or do not
// exist. Signed out (401): everything stops.
import { useEffect, useSyncExternalStore } from "react";
import { NOTIFICATIONS_API, NOTIFICATIONS_STREAM } from "../notifications.schema";
import { MAX_STREAM_FAILURES, POLL_INTERVAL_MS, reconnectDelayMs, type NotificationState } from "../notification-rules";

type Live = {
  state: NotificationState | null;
  listeners: Set<() => void>;
  refs: number;
  source: EventSource | null;
  failures: number;
  retry: ReturnType<typeof setTimeout> | undefined;
  poll: ReturnType<typeof setInterval> | undefined;
  signedOut: boolean;
};

const live: Live = { state: null, listeners: new Set(), refs: 0, source: null, failures: 0, retry: undefined, poll: undefined, signedOut: false };

function publish(state: NotificationState | null) {
  live.state = state;
  for (const listener of live.listeners) listener();
}

function stopAll() {
  live.source?.close();
  live.source = null;
  if (live.retry) clearTimeout(live.retry);
  if (live.poll) clearInterval(live.poll);
  live.retry = undefined;
  live.poll = undefined;
}

/** Reads the state once (fallback); false when the member is signed out. */
async function refresh(): Promise<boolean> {
  try {
    const res = await fetch(NOTIFICATIONS_API, { headers: { accept: "application/json" }, credentials: "same-origin" });
    if (res.status === 401) {
      live.signedOut = true;
      stopAll();
      return false;
    }
    if (res.ok && live.refs > 0) publish((await res.json()) as NotificationState);
  } catch {
    // offline: the next attempt will tell
  }
  return true;
}

function startPolling() {
  if (live.poll) return;
  live.poll = setInterval(() => void refresh(), POLL_INTERVAL_MS);
}

function connect() {
  if (live.signedOut || live.refs === 0) return;
  if (typeof EventSource === "undefined") {
    startPolling();
    return;
  }
  const source = new EventSource(NOTIFICATIONS_STREAM);
  live.source = source;
  source.addEventListener("state", (event) => {
    live.failures = 0;
    try {
      publish(JSON.parse((event as MessageEvent<string>).data) as NotificationState);
    } catch {
      // a malformed message is ignored; the next one carries the whole state again
    }
  });
  source.onerror = () => {
    // CONNECTING: the stream ended cleanly (a server restarting) and the browser retries by
    // itself. CLOSED: refused (signed out, unavailable): we decide.
    live.failures++;
    if (source.readyState !== EventSource.CLOSED && live.failures < MAX_STREAM_FAILURES) return;
    source.close();
    if (live.source === source) live.source = null;
    void refresh().then((signedIn) => {
      if (!signedIn || live.refs === 0) return;
      if (live.failures >= MAX_STREAM_FAILURES) startPolling();
      else live.retry = setTimeout(connect, reconnectDelayMs(live.failures));
    });
  };
}

function subscribe(listener: () => void) {
  live.listeners.add(listener);
  return () => live.listeners.delete(listener);
}

/**
 * The member's notification state, live: `initial` (from the loader) until the stream speaks,
 * and again whenever the loader gives a newer one (after an action).
 */
export function useLiveNotifications(initial: NotificationState): NotificationState {
  useEffect(() => {
    live.refs++;
    if (live.refs === 1) {
      live.signedOut = false;
      live.failures = 0;
      connect();
    }
    return () => {
      live.refs--;
      if (live.refs === 0) {
        stopAll();
        live.state = null;
      }
    };
  }, []);
  useEffect(() => {
    // The loader read the database after the last action: its answer is the newest.
    if (live.state) publish(null);
  }, [initial]);
  const state = useSyncExternalStore(
    subscribe,
    () => live.state,
    () => null,
  );
  return state ?? initial;
}
