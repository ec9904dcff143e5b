/**
 * Reads a response body, but never more than `maxBytes + 1` bytes of it: once the body is known to
 * be over `maxBytes`, reading stops and the rest is cancelled, so a server sending an endless or
 * huge answer costs at most that much memory. The caller's size check (e.g. `parseJsonDocument`
 * with the same `maxBytes`) then refuses the over-long result. Rejects as the body's own read does
 * (network failure, abort through the request's signal).
 *
 * @example
 * const bytes = await readBoundedBody(response, 1024 * 1024); // bytes.length <= 1024 * 1024 + 1
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const room = maxBytes + 1 - total;
      chunks.push(next.value.length > room ? next.value.subarray(0, room) : next.value);
      total += Math.min(next.value.length, room);
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
