import { describe, expect, it } from "vitest";
import { STREAMS_PER_MEMBER, STREAMS_PER_SESSION, streamsOverCap } from "./stream-cap";

/** Streams named "<session><n>", oldest first: "a1 a2 b1" → a1, a2 of session a, b1 of b. */
const streams = (names: string) => names.split(" ").map((name) => ({ name, sessionId: name[0]! }));
const closed = (names: string, caps = { perSession: 3, perMember: 6 }) =>
  streamsOverCap(streams(names), caps)
    .map((s) => s.name)
    .join(" ");

describe("streamsOverCap", () => {
  it.each([
    ["a handful of tabs: nothing closes", "a1 a2 a3 b1 b2 b3", ""],
    ["a fourth stream of one session closes its oldest", "a1 a2 a3 a4", "a1"],
    ["only the crowded session loses a stream", "b1 a1 a2 b2 a3 a4", "a1"],
    ["a seventh stream of a member closes the oldest of all", "a1 b1 b2 c1 c2 c3 d1", "a1"],
    ["both caps: the session’s oldest, then the member’s oldest left", "a1 b1 b2 b3 c1 c2 d1 b4 b5", "a1 b1 b2"],
    ["one stream", "a1", ""],
  ])("%s", (_case, open, expected) => {
    expect(closed(open)).toBe(expected);
  });

  it("uses a handful as the default caps", () => {
    expect([STREAMS_PER_SESSION, STREAMS_PER_MEMBER]).toEqual([3, 6]);
    expect(streamsOverCap(streams("a1 a2 a3 a4")).map((s) => s.name)).toEqual(["a1"]);
  });
});
