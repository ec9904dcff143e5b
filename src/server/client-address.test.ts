import { describe, expect, test } from "vitest";
import {
  clientAddressOf,
  LOOPBACK_PROXIES,
  MAX_FORWARDED_HOPS,
  TRUST_NO_PROXY,
  trustProxies,
} from "./client-address.ts";

const loopback = trustProxies(LOOPBACK_PROXIES);
if (loopback === null) throw new Error("the loopback list must parse");

describe("clientAddressOf", () => {
  test("without trusted proxies the peer is the client, whatever the header says", () => {
    expect(clientAddressOf("127.0.0.1", "203.0.113.7", TRUST_NO_PROXY)).toBe("127.0.0.1");
    expect(clientAddressOf("::ffff:192.0.2.1", "203.0.113.7", TRUST_NO_PROXY)).toBe("192.0.2.1");
    expect(clientAddressOf(undefined, "203.0.113.7", TRUST_NO_PROXY)).toBe("unknown");
  });

  test("a trusted peer's header is read from the right, skipping trusted hops", () => {
    expect(clientAddressOf("127.0.0.1", "203.0.113.7", loopback)).toBe("203.0.113.7");
    expect(clientAddressOf("127.0.0.1", "198.51.100.1, 203.0.113.7", loopback)).toBe("203.0.113.7");
    expect(clientAddressOf("::1", "203.0.113.7, 127.0.0.2", loopback)).toBe("203.0.113.7");
    expect(clientAddressOf("127.0.0.1", " 2001:DB8::1 ", loopback)).toBe("2001:db8::1");
    expect(clientAddressOf("127.0.0.1", undefined, loopback)).toBe("127.0.0.1");
  });

  test("an untrusted peer's header is ignored", () => {
    expect(clientAddressOf("192.0.2.9", "203.0.113.7", loopback)).toBe("192.0.2.9");
  });

  test("a malformed entry or an over-long chain stops at the nearest trusted hop", () => {
    for (const bogus of [
      "garbage",
      "",
      "203.0.113.7:443",
      "1.2.3.4, x",
      "[::1]",
      "9".repeat(5000),
    ]) {
      expect(clientAddressOf("127.0.0.1", bogus, loopback), bogus).toBe("127.0.0.1");
    }
    expect(clientAddressOf("127.0.0.1", "203.0.113.7, garbage, 127.0.0.5", loopback)).toBe(
      "127.0.0.5",
    );
    const chain = Array.from({ length: MAX_FORWARDED_HOPS + 4 }, () => "127.0.0.9").join(",");
    expect(clientAddressOf("127.0.0.1", `203.0.113.7,${chain}`, loopback)).toBe("127.0.0.9");
  });

  test("subnets are trusted; entries that are not an address or subnet are refused", () => {
    const tenNet = trustProxies(["10.0.0.0/8", "fd00::/8"]);
    if (tenNet === null) throw new Error("valid list");
    expect(clientAddressOf("10.1.2.3", "203.0.113.7", tenNet)).toBe("203.0.113.7");
    expect(clientAddressOf("fd12::1", "203.0.113.7", tenNet)).toBe("203.0.113.7");
    expect(clientAddressOf("127.0.0.1", "203.0.113.7", tenNet)).toBe("127.0.0.1");
    for (const bad of [
      "10.0.0.0/33",
      "10.0.0.0/8/1",
      "host.example",
      "",
      "::/129",
      "10.0.0.0/-1",
    ]) {
      expect(trustProxies([bad]), bad).toBeNull();
    }
  });
});
