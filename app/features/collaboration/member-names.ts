// How a file names a member, including one who has left the network (the file outlives them). Pure.
export const GONE_MEMBER_NAME = "Membre ayant quitté le réseau";

/** A member's name as the file shows it, or GONE_MEMBER_NAME once the member has left. */
export function memberNameOrGone(first: string | null | undefined, last: string | null | undefined): string {
  return first ? `${first} ${last ?? ""}`.trim() : GONE_MEMBER_NAME;
}
