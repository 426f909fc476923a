import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MandateFlags, StatusBadge } from "./mandate-badges";

const count = (html: string, word: string) => html.split(word).length - 1;

describe("mandate badges (issue 16: 'Expiré' once)", () => {
  it.each([
    ["an expired mandate whose status badge says Expiré", "active", "expired", 1],
    ["a mandate past its end date whose status badge says something else", "on_hold", "on_hold", 1],
    ["a mandate still running", "active", "active", 0],
  ] as const)("%s", (_label, status, shown, expected) => {
    const endDate = shown === "active" ? "2999-12-31" : "2020-01-01";
    const html = renderToStaticMarkup(
      <>
        <MandateFlags isExclusive endDate={endDate} today="2026-11-24" status={status} statusShown={shown} />
        <StatusBadge status={shown} />
      </>,
    );
    expect(count(html, "Expiré")).toBe(expected);
  });
});
