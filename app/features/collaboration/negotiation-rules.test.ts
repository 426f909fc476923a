import { describe, expect, it } from "vitest";
import { MANDATE_STATUSES, type MandateStatus } from "~/features/mandates/mandate-rules";
import { STAGES, type Stage } from "./collaboration-rules";
import { mandateStatusAfterClosing, mandateTransition, refusalMessage, type MandateCommand, type MandateTransition } from "./negotiation-rules";

const ok = (to: MandateStatus): MandateTransition => ({ ok: true, to });
const no = (reason: "file_stage" | "mandate_status" | "already"): MandateTransition => ({ ok: false, reason });

describe("mandateTransition: negotiate", () => {
  it.each<[MandateStatus, Stage | null, MandateTransition]>([
    // From the search states, once an offer or a protocol exists.
    ["active", "offer", ok("negotiating")],
    ["active", "protocol", ok("negotiating")],
    ["on_hold", "offer", ok("negotiating")],
    ["on_hold", "protocol", ok("negotiating")],
    // Not before the offer, nor from an ended file, nor outside a file.
    ["active", "introduction", no("file_stage")],
    ["active", "exchanges", no("file_stage")],
    ["active", "documents", no("file_stage")],
    ["active", "concluded", no("file_stage")],
    ["active", "abandoned", no("file_stage")],
    ["active", null, no("file_stage")],
    // Not from an expired or concluded mandate; a second time is refused.
    ["expired", "offer", no("mandate_status")],
    ["concluded", "offer", no("mandate_status")],
    ["negotiating", "offer", no("already")],
  ])("%s at file stage %s → %j", (status, stage, expected) => {
    expect(mandateTransition("negotiate", status, stage)).toEqual(expected);
  });
});

describe("mandateTransition: resume (« Remettre en recherche active »)", () => {
  it.each<[MandateStatus, Stage | null, MandateTransition]>([
    ["negotiating", null, ok("active")],
    ["negotiating", "offer", ok("active")],
    ["negotiating", "abandoned", ok("active")],
    ["negotiating", "concluded", ok("active")],
    ["active", "offer", no("already")],
    ["on_hold", null, no("mandate_status")],
    ["expired", null, no("mandate_status")],
    ["concluded", null, no("mandate_status")],
  ])("%s (file stage %s) → %j", (status, stage, expected) => {
    expect(mandateTransition("resume", status, stage)).toEqual(expected);
  });
});

describe("mandateTransition: conclude", () => {
  it.each<[MandateStatus, Stage | null, MandateTransition]>([
    ["negotiating", "concluded", ok("concluded")],
    ["active", "concluded", ok("concluded")],
    ["on_hold", "concluded", ok("concluded")],
    ["expired", "concluded", ok("concluded")],
    ["concluded", "concluded", no("already")],
    ["negotiating", "protocol", no("file_stage")],
    ["active", "abandoned", no("file_stage")],
    ["active", null, no("file_stage")],
  ])("%s at file stage %s → %j", (status, stage, expected) => {
    expect(mandateTransition("conclude", status, stage)).toEqual(expected);
  });
});

describe("mandateStatusAfterClosing: both mandates of a concluded file leave the matching (decision 046)", () => {
  it.each<[MandateStatus, MandateStatus]>([
    ["negotiating", "concluded"],
    ["active", "concluded"],
    ["on_hold", "concluded"],
    ["expired", "concluded"],
    ["concluded", "concluded"],
  ])("%s → %s", (from, to) => expect(mandateStatusAfterClosing(from)).toBe(to));
});

it("every refusal has a French message, and every status × stage × command is decided", () => {
  const commands: MandateCommand[] = ["negotiate", "resume", "conclude"];
  for (const command of commands) {
    for (const status of MANDATE_STATUSES) {
      for (const stage of [...STAGES, null]) {
        const t = mandateTransition(command, status, stage);
        if (!t.ok) expect(refusalMessage(command, t.reason)).toMatch(/^[A-ZÀ-Ü].+\.$/);
        else expect(MANDATE_STATUSES).toContain(t.to);
      }
    }
  }
});
