import { describe, expect, test } from "vitest";
import { ageText } from "./sessions-command.ts";

describe("ageText (brigade sessions' SEEN and STARTED columns)", () => {
  test("one short unit against the server's clock", () => {
    const now = "2026-10-02T12:00:00.000Z";
    expect(ageText("2026-10-02T12:00:00.000Z", now)).toBe("0s ago");
    expect(ageText("2026-10-02T11:58:01.000Z", now)).toBe("119s ago");
    expect(ageText("2026-10-02T11:58:00.000Z", now)).toBe("2m ago");
    expect(ageText("2026-10-02T10:00:01.000Z", now)).toBe("119m ago");
    expect(ageText("2026-10-02T10:00:00.000Z", now)).toBe("2h ago");
    expect(ageText("2026-09-30T12:00:01.000Z", now)).toBe("47h ago");
    expect(ageText("2026-09-25T12:00:00.000Z", now)).toBe("7d ago");
  });

  test("a later, unparsable or hostile time reads as -", () => {
    const now = "2026-10-02T12:00:00.000Z";
    expect(ageText("2026-10-02T12:00:01.000Z", now)).toBe("-");
    expect(ageText("yesterday", now)).toBe("-");
    expect(ageText("<b>x</b>", now)).toBe("-");
    expect(ageText("2026-10-02T11:00:00.000Z", "garbage")).toBe("-");
  });
});
