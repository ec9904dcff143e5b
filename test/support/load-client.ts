import http from "node:http";

/** What a call came back with: a BAP/1 envelope, or nothing known (network failure, 5xx). */
export type CallOutcome =
  | { readonly kind: "ok"; readonly result: Record<string, unknown> }
  | {
      readonly kind: "refused";
      readonly code: string;
      readonly reason: string | undefined;
      readonly retryable: boolean;
    }
  | { readonly kind: "unknown" };

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** Per-call budget: a frozen database may hold a request this long before it counts as lost. */
export const CALL_TIMEOUT_MS = 15_000;

/**
 * One call to `brigade serve` (or a proxy in front of several) over keep-alive HTTP/1.1. Never
 * throws: a connection failure, a timeout, a 5xx or a body that is not an envelope is `unknown` —
 * the client cannot tell whether a write was applied. `localAddress` picks the loopback source
 * address (minting principals is limited per address).
 */
export function call(
  base: string,
  method: "GET" | "POST",
  path: string,
  token?: string,
  body?: unknown,
  localAddress?: string,
): Promise<CallOutcome> {
  const url = new URL(path, base);
  const payload = body === undefined && method === "GET" ? undefined : JSON.stringify(body ?? {});
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers,
        ...(localAddress === undefined ? { agent } : { localAddress, agent: false }),
        timeout: CALL_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", () => resolve({ kind: "unknown" }));
        response.on("end", () => {
          if ((response.statusCode ?? 500) >= 500) {
            resolve({ kind: "unknown" });
            return;
          }
          resolve(parseEnvelope(Buffer.concat(chunks).toString("utf8")));
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", () => resolve({ kind: "unknown" }));
    request.end(payload);
  });
}

function parseEnvelope(text: string): CallOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "unknown" };
  }
  if (typeof parsed !== "object" || parsed === null) return { kind: "unknown" };
  const envelope = parsed as {
    ok?: unknown;
    result?: Record<string, unknown>;
    error?: { code?: unknown; details?: { reason?: unknown }; retryable?: unknown };
  };
  if (envelope.ok === true && typeof envelope.result === "object")
    return { kind: "ok", result: envelope.result };
  if (envelope.ok === false && typeof envelope.error?.code === "string") {
    const reason = envelope.error.details?.reason;
    // An internal error says nothing about whether a write landed.
    if (envelope.error.code === "internal") return { kind: "unknown" };
    return {
      kind: "refused",
      code: envelope.error.code,
      reason: typeof reason === "string" ? reason : undefined,
      retryable: envelope.error.retryable === true,
    };
  }
  return { kind: "unknown" };
}

/** `call` for a setup step that must succeed: retries `unknown` for a while, throws on a refusal. */
export async function must(
  base: string,
  method: "GET" | "POST",
  path: string,
  token?: string,
  body?: unknown,
  localAddress?: string,
): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const outcome = await call(base, method, path, token, body, localAddress);
    if (outcome.kind === "ok") return outcome.result;
    if (outcome.kind === "refused")
      throw new Error(`${method} ${path}: ${outcome.code} ${outcome.reason ?? ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${method} ${path}: no answer`);
}
