/**
 * The few WebSocket frames (RFC 6455) a client of Codex's app-server needs: Codex 0.171.0 serves
 * its JSON-RPC on a Unix socket as WebSocket text messages (docs/49-codex.md "The app-server"),
 * and Node 20 has no WebSocket client. Client frames are masked; server frames are not.
 */

/** The largest message Brigade accepts from the app-server, in bytes (Codex announces 16 MiB). */
export const WEBSOCKET_MAX_MESSAGE_BYTES: number = 16 * 1024 * 1024;

/** One whole frame read off the stream. */
export interface WebSocketFrame {
  /** The final-fragment bit. */
  readonly fin: boolean;
  /** 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong. */
  readonly opcode: number;
  /** The unmasked payload. */
  readonly payload: Buffer;
}

/**
 * Why {@link readFrames} refused the stream (docs/errors.md): a frame over
 * {@link WEBSOCKET_MAX_MESSAGE_BYTES} (`frame_too_large`), a masked server frame
 * (`masked_server_frame`). The connection is closed.
 *
 * @example WEBSOCKET_FRAME_REFUSALS.length === 2
 */
export const WEBSOCKET_FRAME_REFUSALS = ["frame_too_large", "masked_server_frame"] as const;

/** What {@link readFrames} found: the whole frames and the bytes of a frame not yet complete. */
export type ReadFramesResult =
  | { readonly ok: true; readonly frames: readonly WebSocketFrame[]; readonly rest: Buffer }
  | { readonly ok: false; readonly reason: "frame_too_large" | "masked_server_frame" };

/**
 * Encodes one masked client frame (`fin` set) of `opcode` (1 text, 8 close, 10 pong) with
 * `payload` and the 4-byte `mask`.
 *
 * @example encodeClientFrame(1, Buffer.from("{}"), Buffer.from([1, 2, 3, 4]))
 */
export function encodeClientFrame(opcode: number, payload: Buffer, mask: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.alloc(headerLength + 4 + length);
  frame[0] = 0x80 | (opcode & 0x0f);
  if (length < 126) {
    frame[1] = 0x80 | length;
  } else if (length < 65_536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  mask.copy(frame, headerLength, 0, 4);
  const body = headerLength + 4;
  for (let i = 0; i < length; i++) frame[body + i] = (payload[i] ?? 0) ^ (mask[i & 3] ?? 0);
  return frame;
}

/**
 * Reads every whole server frame at the start of `buffer`; the incomplete tail is `rest`. Refuses
 * (never throws) a frame longer than {@link WEBSOCKET_MAX_MESSAGE_BYTES} and a masked server frame
 * (RFC 6455 §5.1: the client must close then).
 *
 * @example readFrames(Buffer.from([0x81, 0x02, 0x7b, 0x7d])) // one text frame "{}"
 */
export function readFrames(buffer: Buffer): ReadFramesResult {
  const frames: WebSocketFrame[] = [];
  let at = 0;
  for (;;) {
    if (buffer.length - at < 2) break;
    const first = buffer[at] ?? 0;
    const second = buffer[at + 1] ?? 0;
    if ((second & 0x80) !== 0) return { ok: false, reason: "masked_server_frame" };
    let length = second & 0x7f;
    let header = 2;
    if (length === 126) {
      if (buffer.length - at < 4) break;
      length = buffer.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (buffer.length - at < 10) break;
      const long = buffer.readBigUInt64BE(at + 2);
      if (long > BigInt(WEBSOCKET_MAX_MESSAGE_BYTES))
        return { ok: false, reason: "frame_too_large" };
      length = Number(long);
      header = 10;
    }
    if (length > WEBSOCKET_MAX_MESSAGE_BYTES) return { ok: false, reason: "frame_too_large" };
    if (buffer.length - at < header + length) break;
    frames.push({
      fin: (first & 0x80) !== 0,
      opcode: first & 0x0f,
      payload: Buffer.from(buffer.subarray(at + header, at + header + length)),
    });
    at += header + length;
  }
  return { ok: true, frames, rest: Buffer.from(buffer.subarray(at)) };
}
