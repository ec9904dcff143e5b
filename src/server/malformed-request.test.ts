import { RequestError } from "@hono/node-server";
import { describe, expect, test } from "vitest";
import { listenerErrorResponse } from "./malformed-request.ts";

describe("listenerErrorResponse", () => {
  test("a request no URL can be made of is the client's fault: 400 malformed_request", async () => {
    const response = listenerErrorResponse(new RequestError("Invalid URL"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "usage", details: { reason: "malformed_request" } },
    });
  });

  test("any other escaped error is the server's: 500 internal, with none of the error's text", async () => {
    for (const error of [new TypeError("secret /var/lib/brigade"), "thrown string", undefined]) {
      const response = listenerErrorResponse(error);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: "internal" } });
      expect(text).not.toContain("secret");
      expect(text).not.toContain("thrown");
    }
  });
});
