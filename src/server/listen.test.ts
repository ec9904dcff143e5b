import { describe, expect, test } from "vitest";
import { explainListenFailure } from "./listen.ts";

describe("explainListenFailure", () => {
  test("a --host name that does not resolve says so, and names --host", () => {
    for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
      expect(explainListenFailure(code, "api", 7777)).toBe(
        "the --host name does not resolve to an address of this machine; check --host",
      );
      expect(explainListenFailure(code, "metrics", 9464)).toBe(
        "the --metrics host name does not resolve to an address of this machine; check --metrics",
      );
    }
  });
});
