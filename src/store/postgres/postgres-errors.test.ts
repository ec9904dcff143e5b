import { describe, expect, test } from "vitest";
import { connectRefusal } from "./postgres-errors.ts";

describe("connectRefusal", () => {
  test("the database's refusals when connecting are named", () => {
    expect(connectRefusal("28P01")).toBe("the database refused the role or its password");
    expect(connectRefusal("3D000")).toBe("the database does not exist");
    expect(connectRefusal("42501")).toBe("the role may not create the schema");
    expect(connectRefusal("store_unavailable")).toContain("the database is unreachable");
  });

  test("a failed connection or handshake sends the operator to the address and sslmode", () => {
    for (const code of ["Error", "08006", "ECONNRESET", "DEPTH_ZERO_SELF_SIGNED_CERT", "EPROTO"]) {
      expect(connectRefusal(code)).toContain("check the address and its parameters (sslmode:");
    }
  });

  test("any other SQLSTATE is the database refusing the store's setup", () => {
    for (const code of ["25006", "53100", "23505", "42P07"]) {
      expect(connectRefusal(code)).toContain("the database refused the store's setup");
    }
  });

  test("a program fault is not blamed on the database", () => {
    for (const code of ["TypeError", "RangeError", "unknown"]) {
      const sentence = connectRefusal(code);
      expect(sentence).toBe(
        "an unexpected failure while opening the store, not an answer of the database",
      );
    }
  });
});
