// What the Node server hands to every loader and action (see server.ts).
import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    nonce: string;
    requestId: string;
    /** Set when a loader or action of this request met a database outage (answered 503). */
    databaseUnavailable?: boolean;
  }
}

export {};
