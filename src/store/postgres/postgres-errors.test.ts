import { describe, expect, test } from "vitest";
import { connectFailureCode, connectRefusal } from "./postgres-errors.ts";

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

describe("connectFailureCode", () => {
  test("pg's plain Error for a password the database asked for and was not given is password_missing", () => {
    for (const message of [
      "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string",
      "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a non-empty string",
    ]) {
      const why = connectFailureCode(new Error(message));
      expect(why).toBe("password_missing");
      expect(connectRefusal(why)).toContain(
        "asks for a password and none was given; set PGPASSWORD",
      );
    }
  });

  test("any other failure keeps its code, else its name", () => {
    expect(connectFailureCode(Object.assign(new Error("x"), { code: "28P01" }))).toBe("28P01");
    expect(connectFailureCode(new Error("self-signed certificate"))).toBe("Error");
    expect(connectFailureCode(new TypeError("x"))).toBe("TypeError");
    expect(connectFailureCode("not an error")).toBe("unknown");
  });
});
