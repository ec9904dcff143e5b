import { describe, expect, test } from "vitest";
import {
  claimsForwardingFetch,
  claimsSplittingStdin,
  type SendClaims,
} from "./trusted-sender-claims.ts";

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? new TextEncoder().encode(part) : part;
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const out: Uint8Array[] = [];
  for await (const chunk of stream) out.push(chunk);
  return Buffer.concat(out).toString("utf8");
}

describe("claimsSplittingStdin", () => {
  test("takes the forbidden members off the document and keeps them", async () => {
    const claims: SendClaims = { members: {} };
    const doc =
      '{"sender_session_id":"s-1","hop_count":null,"body":"x","sender":{"session_id":"s-9"}}';
    const out = await drain(claimsSplittingStdin(chunks(doc.slice(0, 10), doc.slice(10)), claims));
    expect(JSON.parse(out)).toEqual({ sender_session_id: "s-1", body: "x" });
    expect(claims.members).toEqual({ hop_count: null, sender: { session_id: "s-9" } });
  });

  test.each([
    ["no forbidden member", '{"body":"x"}'],
    ["malformed JSON", '{"body": '],
    ["not an object", '["sender"]'],
    ["duplicate members (strict JSON)", '{"sender":1,"sender":2}'],
    ["empty", ""],
  ])("passes %s through byte for byte", async (_what, doc) => {
    const claims: SendClaims = { members: {} };
    expect(await drain(claimsSplittingStdin(chunks(doc), claims))).toBe(doc);
    expect(claims.members).toEqual({});
  });

  test("passes a document over 1 MiB through whole (the binding reports its size)", async () => {
    const claims: SendClaims = { members: {} };
    const big = `{"sender":1,"pad":"${"a".repeat(1_048_576)}"}`;
    expect((await drain(claimsSplittingStdin(chunks(big), claims))).length).toBe(big.length);
    expect(claims.members).toEqual({});
  });

  test("reads nothing until iterated", async () => {
    let touched = false;
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        touched = true;
        return chunks("{}")[Symbol.asyncIterator]();
      },
    };
    const view = claimsSplittingStdin(source, { members: {} });
    expect(touched).toBe(false);
    await drain(view);
    expect(touched).toBe(true);
  });
});

describe("claimsForwardingFetch", () => {
  function recorder() {
    const seen: { url: string; body: unknown }[] = [];
    const base = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      seen.push({ url: String(input), body: init?.body });
      return new Response("{}");
    }) as typeof fetch;
    return { seen, base };
  }

  test("adds the claims to the body of POST …/teams/<t>/messages only", async () => {
    const { seen, base } = recorder();
    const claims: SendClaims = { members: { created_at: "2026-01-01T00:00:00Z" } };
    const f = claimsForwardingFetch(claims, base);
    const body = JSON.stringify({ body: "x" });
    await f("http://127.0.0.1:1/v1/teams/t-1/messages", { method: "POST", body });
    await f("http://127.0.0.1:1/v1/teams/t-1/sessions", { method: "POST", body });
    await f("http://127.0.0.1:1/v1/teams/t-1/sessions/s-1/messages", { method: "GET" });
    expect(seen.map((s) => s.body)).toEqual([
      JSON.stringify({ body: "x", created_at: "2026-01-01T00:00:00Z" }),
      body,
      undefined,
    ]);
  });

  test("without claims every request goes out unchanged", async () => {
    const { seen, base } = recorder();
    const body = JSON.stringify({ body: "x" });
    await claimsForwardingFetch({ members: {} }, base)("http://h/v1/teams/t/messages", {
      method: "POST",
      body,
    });
    expect(seen[0]?.body).toBe(body);
  });
});
