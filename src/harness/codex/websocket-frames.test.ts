import { describe, expect, test } from "vitest";
import { encodeClientFrame, readFrames, WEBSOCKET_MAX_MESSAGE_BYTES } from "./websocket-frames.ts";

/** An unmasked server frame, as the app-server writes one. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([(fin ? 0x80 : 0) | opcode, n])
      : n < 65_536
        ? Buffer.from([(fin ? 0x80 : 0) | opcode, 126, n >> 8, n & 0xff])
        : (() => {
            const h = Buffer.alloc(10);
            h[0] = (fin ? 0x80 : 0) | opcode;
            h[1] = 127;
            h.writeBigUInt64BE(BigInt(n), 2);
            return h;
          })();
  return Buffer.concat([head, payload]);
}

/** Reads a client frame back (unmasking), as a server would. */
function unmask(frame: Buffer): { opcode: number; payload: Buffer } {
  let length = (frame[1] ?? 0) & 0x7f;
  let at = 2;
  if (length === 126) {
    length = frame.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    length = Number(frame.readBigUInt64BE(2));
    at = 10;
  }
  const mask = frame.subarray(at, at + 4);
  const payload = Buffer.from(frame.subarray(at + 4, at + 4 + length));
  for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i & 3] ?? 0);
  return { opcode: (frame[0] ?? 0) & 0x0f, payload };
}

describe("encodeClientFrame", () => {
  test.each([0, 125, 126, 65_535, 65_536, 70_000])(
    "a %i-byte payload is masked, fin set, and reads back",
    (n) => {
      const payload = Buffer.alloc(n, "é");
      const frame = encodeClientFrame(1, payload, Buffer.from([9, 8, 7, 6]));
      expect((frame[0] ?? 0) & 0x80).toBe(0x80);
      expect((frame[1] ?? 0) & 0x80).toBe(0x80);
      const back = unmask(frame);
      expect(back.opcode).toBe(1);
      expect(back.payload.equals(payload)).toBe(true);
    },
  );
});

describe("readFrames", () => {
  test("whole frames are read and a partial one is kept for later, at any split", () => {
    const stream = Buffer.concat([
      serverFrame(1, Buffer.from('{"a":1}')),
      serverFrame(9, Buffer.from("p")),
      serverFrame(1, Buffer.alloc(300, "x")),
    ]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const first = readFrames(stream.subarray(0, cut));
      if (!first.ok) throw new Error(first.reason);
      const second = readFrames(Buffer.concat([first.rest, stream.subarray(cut)]));
      if (!second.ok) throw new Error(second.reason);
      const all = [...first.frames, ...second.frames];
      expect(all.map((f) => [f.opcode, f.payload.length])).toEqual([
        [1, 7],
        [9, 1],
        [1, 300],
      ]);
      expect(second.rest.length).toBe(0);
    }
  });

  test("a fragment keeps its fin bit", () => {
    const read = readFrames(
      Buffer.concat([serverFrame(1, Buffer.from("ab"), false), serverFrame(0, Buffer.from("c"))]),
    );
    expect(read.ok && read.frames.map((f) => [f.fin, f.opcode])).toEqual([
      [false, 1],
      [true, 0],
    ]);
  });

  test("a masked server frame and one over the size bound are refused, never thrown", () => {
    expect(readFrames(encodeClientFrame(1, Buffer.from("x"), Buffer.from([1, 2, 3, 4])))).toEqual({
      ok: false,
      reason: "masked_server_frame",
    });
    const huge = Buffer.alloc(10);
    huge[0] = 0x81;
    huge[1] = 127;
    huge.writeBigUInt64BE(BigInt(WEBSOCKET_MAX_MESSAGE_BYTES + 1), 2);
    expect(readFrames(huge)).toEqual({ ok: false, reason: "frame_too_large" });
    huge.writeBigUInt64BE(0xffff_ffff_ffff_ffffn, 2);
    expect(readFrames(huge)).toEqual({ ok: false, reason: "frame_too_large" });
  });
});
