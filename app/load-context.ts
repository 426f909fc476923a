// What the Node server hands to every loader and action (see server.ts).
import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    nonce: string;
    requestId: string;
    /**
     * The public page cache records this response's body to keep it: the render cache must send
     * it as text, not compressed (decision 027).
     */
    recordedByPageCache?: boolean;
    /** Set when a loader or action of this request met a database outage (answered 503). */
    databaseUnavailable?: boolean;
  }
}

export {};
