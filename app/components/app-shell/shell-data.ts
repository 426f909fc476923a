// What the member space's layout (routes/member/shell.tsx) tells the document: its own module, so
// that root.tsx (in every public page's bundle) does not pull the frame's components in.

export type ShellUser = {
  firstName: string;
  lastName: string;
  email: string;
  /** The member's profile id (the avatar's colour), null for an admin without a profile. */
  profileId: string | null;
  membership: "freemium" | "premium" | "founding_member" | null;
  member: boolean;
  admin: boolean;
};

/** The route id of the member space's layout and what its loader returns. */
export const SHELL_ROUTE_ID = "routes/member/shell";
export type ShellData = { shell: { appName: string; year: number; user: ShellUser } | null };
