import { describe, expect, it } from "vitest";
import {
  canApprove,
  canCreateFolder,
  DEFAULT_RIGHTS,
  folderVisibleTo,
  founderSide,
  invitationExpiry,
  isAllowed,
  participantState,
  type FileRole,
  type FileSide,
  type FolderVisibility,
  type Right,
  type Rights,
} from "./participant-rules";

const R = (voir: boolean, telecharger: boolean, deposer: boolean): Rights => ({ voir, telecharger, deposer });
const NONE = R(false, false, false);
const VIEW = R(true, false, false);
const VIEW_DL = R(true, true, false);
const FULL = R(true, true, true);

// role × side × folder visibility × rights × right → allowed
const cases: Array<[FileRole, FileSide, FolderVisibility, Rights, Right, boolean]> = [
  // Founding members: every right, on shared folders and on their own side's.
  ["fondateur", "cedant", "both", NONE, "voir", true],
  ["fondateur", "cedant", "both", NONE, "telecharger", true],
  ["fondateur", "cedant", "both", NONE, "deposer", true],
  ["fondateur", "cedant", "cedant", NONE, "deposer", true],
  ["fondateur", "cedant", "acquereur", FULL, "voir", false],
  ["fondateur", "acquereur", "acquereur", NONE, "telecharger", true],
  ["fondateur", "acquereur", "cedant", FULL, "voir", false],
  // Participants: their own rights, on what their side sees.
  ["expert_comptable", "cedant", "both", VIEW, "voir", true],
  ["expert_comptable", "cedant", "both", VIEW, "telecharger", false],
  ["expert_comptable", "cedant", "both", VIEW, "deposer", false],
  ["expert_comptable", "cedant", "cedant", FULL, "deposer", true],
  ["expert_comptable", "cedant", "acquereur", FULL, "voir", false],
  ["avocat", "acquereur", "acquereur", VIEW_DL, "telecharger", true],
  ["avocat", "acquereur", "acquereur", VIEW_DL, "deposer", false],
  ["avocat", "acquereur", "cedant", FULL, "telecharger", false],
  ["banque", "acquereur", "both", VIEW_DL, "telecharger", true],
  ["banque", "acquereur", "cedant", VIEW_DL, "voir", false],
  // « Commun » (a notary for the deed): shared folders only.
  ["notaire", "commun", "both", FULL, "deposer", true],
  ["notaire", "commun", "cedant", FULL, "voir", false],
  ["notaire", "commun", "acquereur", FULL, "voir", false],
  // Without « voir », no other right counts.
  ["conseil", "cedant", "both", R(false, true, true), "telecharger", false],
  ["conseil", "cedant", "both", R(false, true, true), "deposer", false],
  ["autre", "commun", "both", NONE, "voir", false],
  ["autre", "commun", "both", VIEW, "voir", true],
];

describe("isAllowed", () => {
  it.each(cases)("%s, %s, folder %s, rights %o, %s → %s", (role, side, visibility, rights, right, allowed) => {
    expect(isAllowed({ role, side, visibility, rights, right })).toBe(allowed);
  });
});

describe("folders", () => {
  it.each([
    ["cedant", "both", true],
    ["cedant", "cedant", true],
    ["cedant", "acquereur", false],
    ["acquereur", "acquereur", true],
    ["commun", "both", true],
    ["commun", "cedant", false],
  ] as const)("side %s sees a %s folder: %s", (side, visibility, seen) => {
    expect(folderVisibleTo(side, visibility)).toBe(seen);
  });

  it("are created by founding members, shared or for their own side", () => {
    expect(canCreateFolder("fondateur", "cedant", "both")).toBe(true);
    expect(canCreateFolder("fondateur", "cedant", "cedant")).toBe(true);
    expect(canCreateFolder("fondateur", "cedant", "acquereur")).toBe(false);
    expect(canCreateFolder("avocat", "cedant", "cedant")).toBe(false);
  });
});

describe("invitations", () => {
  it("expire after seven days", () => {
    const now = new Date("2026-11-28T08:00:00Z");
    expect(invitationExpiry(now).toISOString()).toBe("2026-12-05T08:00:00.000Z");
    expect(participantState("invited", invitationExpiry(now), now)).toBe("invited");
    expect(participantState("invited", now, now)).toBe("expired");
    expect(participantState("active", new Date(0), now)).toBe("active");
  });

  it("of a guest are approved by the other founding member only", () => {
    expect(canApprove("b", "a")).toBe(true);
    expect(canApprove("a", "a")).toBe(false);
    expect(canApprove("a", null)).toBe(false);
  });

  it("propose rights by role, never a right without « voir »", () => {
    for (const rights of Object.values(DEFAULT_RIGHTS)) expect(rights.voir).toBe(true);
    expect(DEFAULT_RIGHTS.banque.deposer).toBe(false);
  });
});

describe("founderSide", () => {
  it("reads the side from the mandate's label", () => {
    expect(founderSide("Mandat cédant «\u00a0C-12\u00a0»")).toBe("cedant");
    expect(founderSide("Mandat acquéreur «\u00a0A-3\u00a0»")).toBe("acquereur");
  });
});
