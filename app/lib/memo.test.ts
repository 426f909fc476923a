import { describe, expect, it } from "vitest";
import { memoByObject } from "./memo";

describe("memoByObject", () => {
  it("makes the value once per key object, and again for another object with the same content", () => {
    let made = 0;
    const twice = memoByObject((key: { n: number }) => ({ n: key.n * 2, made: ++made }));
    const a = { n: 1 };
    expect(twice(a)).toEqual({ n: 2, made: 1 });
    expect(twice(a)).toBe(twice(a));
    expect(made).toBe(1);
    expect(twice({ n: 1 })).toEqual({ n: 2, made: 2 });
  });

  it("keeps a falsy value instead of making it again", () => {
    let made = 0;
    const nothing = memoByObject((_key: object) => {
      made += 1;
      return undefined;
    });
    const key = {};
    nothing(key);
    nothing(key);
    expect(made).toBe(1);
  });
});
