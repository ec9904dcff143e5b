import { PassThrough, Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { DeliveryTransport, type ResponseDelivery } from "./delivery-transport.ts";

/** A delivery that records what happened to it. */
function recorder(): ResponseDelivery & { readonly events: string[] } {
  const events: string[] = [];
  return {
    events,
    delivered: async () => {
      events.push("delivered");
    },
    undelivered: () => {
      events.push("undelivered");
    },
  };
}

function transport(stdout: Writable = new PassThrough()): DeliveryTransport {
  return new DeliveryTransport(new PassThrough(), stdout);
}

const result = (id: number) => ({ jsonrpc: "2.0" as const, id, result: { content: [] } });

describe("DeliveryTransport", () => {
  test("a written result is delivered once the write is done, and only its own", async () => {
    const out = new PassThrough();
    const written: string[] = [];
    out.on("data", (chunk: Buffer) => written.push(chunk.toString("utf8")));
    const wire = transport(out);
    const mine = recorder();
    wire.onResponse(7, mine);
    await wire.send({ jsonrpc: "2.0", method: "notifications/progress", params: {} });
    await wire.send(result(8));
    expect(mine.events).toEqual([]);
    await wire.send(result(7));
    expect(mine.events).toEqual(["delivered"]);
    expect(written.join("")).toContain('"id":7');
    await wire.send(result(7));
    expect(mine.events).toEqual(["delivered"]);
  });

  test("a write that fails is not delivered", async () => {
    const broken = new Writable({
      highWaterMark: 1,
      write: (_chunk, _encoding, done) => done(new Error("EPIPE")),
    });
    broken.on("error", () => {});
    const wire = transport(broken);
    const mine = recorder();
    wire.onResponse(7, mine);
    await expect(wire.send(result(7))).rejects.toThrow("EPIPE");
    expect(mine.events).toEqual(["undelivered"]);
  });

  test("an error answer, a cancelled request and a closed connection are not delivered", async () => {
    const wire = transport();
    const errored = recorder();
    const cancelled = recorder();
    const open = recorder();
    wire.onResponse(1, errored);
    wire.onResponse(2, cancelled);
    wire.onResponse(3, open);
    await wire.send({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x" } });
    wire.cancel(2);
    await wire.close();
    await wire.closed;
    expect([errored.events, cancelled.events, open.events]).toEqual([
      ["undelivered"],
      ["undelivered"],
      ["undelivered"],
    ]);
  });

  test("a second registration for the same id gives up the first", () => {
    const wire = transport();
    const first = recorder();
    wire.onResponse(5, first);
    wire.onResponse(5, recorder());
    expect(first.events).toEqual(["undelivered"]);
  });
});
