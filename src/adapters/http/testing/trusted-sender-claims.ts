import {
  isJsonObject,
  MAX_STDIN_DOCUMENT_BYTES,
  parseJsonDocument,
  SEND_REQUEST_FORBIDDEN_MEMBERS,
} from "../../../protocol/index.ts";

/**
 * The forbidden members (docs/spec/protocol.md §4.7) of one `message send` document, held between
 * the moment the process binding reads stdin and the moment the adapter POSTs the request.
 * Test-only (mutant `trusted_sender`).
 */
export interface SendClaims {
  /** Members removed from stdin, in document order; empty when there were none. */
  members: Record<string, unknown>;
}

/**
 * A view of `stdin` for `message send` under `trusted_sender`: read lazily (only when the process
 * binding reads its document, so the local checks still run first); a document of at most 1 MiB
 * that parses as a JSON object carrying forbidden members is passed on without them (they go to
 * `claims.members`); anything else — too long, malformed, not an object, nothing forbidden — is
 * passed on byte for byte, so the binding answers exactly as for the real adapter.
 *
 * @example runProcessBinding(argv, { ...io, stdin: claimsSplittingStdin(process.stdin, claims) }, factory)
 */
export async function* claimsSplittingStdin(
  stdin: AsyncIterable<Uint8Array>,
  claims: SendClaims,
): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  if (total <= MAX_STDIN_DOCUMENT_BYTES) {
    const bytes = Buffer.concat(chunks);
    const parsed = parseJsonDocument(bytes, { maxBytes: MAX_STDIN_DOCUMENT_BYTES });
    if (parsed.ok && isJsonObject(parsed.value)) {
      const rest: Record<string, unknown> = { ...parsed.value };
      for (const name of SEND_REQUEST_FORBIDDEN_MEMBERS) {
        if (Object.hasOwn(rest, name)) {
          claims.members[name] = rest[name];
          delete rest[name];
        }
      }
      if (Object.keys(claims.members).length > 0) {
        yield new TextEncoder().encode(JSON.stringify(rest));
        return;
      }
    }
  }
  yield* chunks;
}

function pathOf(input: Parameters<typeof fetch>[0]): string {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(href).pathname;
  } catch {
    return "";
  }
}

/**
 * A `fetch` that adds `claims.members` to the JSON body of the adapter's `message send` request
 * (`POST …/teams/<team>/messages`) and leaves every other request untouched; `base` does the
 * transfer (default: the global `fetch`).
 *
 * @example new HttpAdapter({ env, fetch: claimsForwardingFetch(claims) })
 */
export function claimsForwardingFetch(
  claims: SendClaims,
  base: typeof fetch = globalThis.fetch,
): typeof fetch {
  return (input, init) => {
    const members = claims.members;
    if (
      Object.keys(members).length > 0 &&
      init?.method === "POST" &&
      typeof init.body === "string" &&
      /\/teams\/[^/]+\/messages$/.test(pathOf(input))
    ) {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      return base(input, { ...init, body: JSON.stringify({ ...body, ...members }) });
    }
    return base(input, init);
  };
}
