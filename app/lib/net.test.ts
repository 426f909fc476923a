import { describe, expect, it } from "vitest";
import { isLoopbackAddress } from "./net";

describe("isLoopbackAddress", () => {
  it.each<[string | null, boolean]>([
    ["127.0.0.1", true],
    ["127.0.0.10", true],
    ["127.255.255.254", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["10.0.0.5", false],
    ["192.168.1.20", false],
    ["::ffff:192.168.1.20", false],
    ["128.0.0.1", false],
    ["127.0.0", false],
    ["127.0.0.1.evil", false],
    ["127.0.0.256", false],
    ["fe80::1", false],
    ["unknown", false],
    ["", false],
    [null, false],
  ])("%s → %s", (address, loopback) => expect(isLoopbackAddress(address)).toBe(loopback));
});
