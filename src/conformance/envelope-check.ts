import { CONFORMANCE_EXIT_STATUS } from "./wire-constants.ts";

/** A parsed docs/spec/protocol.md §3 envelope as the suite sees it. */
export interface CheckedEnvelope {
  readonly ok: boolean;
  readonly result: Record<string, unknown> | undefined;
  readonly error: ErrorObject | undefined;
}

/** A docs/spec/protocol.md §3 error object (`details` values are strings). */
export interface ErrorObject {
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean | undefined;
  readonly retry_after_ms: number | undefined;
  readonly details: Readonly<Record<string, string>> | undefined;
}

/** Outcome of {@link checkEnvelopeStdout}: the envelope (when it parsed) and every violation. */
export interface EnvelopeCheck {
  readonly envelope: CheckedEnvelope | undefined;
  readonly violations: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a docs/spec/protocol.md §3 error object. Returns the violations (empty when valid) and the
 * typed object. `retryable` missing is a violation (B-2, docs/spec/protocol.md §3.1).
 *
 * @example checkErrorObject({ code: "usage", message: "m", retryable: false }).violations // []
 */
export function checkErrorObject(value: unknown): {
  readonly error: ErrorObject | undefined;
  readonly violations: string[];
} {
  const v: string[] = [];
  if (!isRecord(value)) return { error: undefined, violations: ["error is not an object"] };
  const code = value.code;
  if (typeof code !== "string" || !(code in CONFORMANCE_EXIT_STATUS)) {
    v.push("error.code is not one of the twelve codes");
  }
  if (typeof value.message !== "string" || value.message === "") {
    v.push("error.message missing");
  }
  if (!("retryable" in value)) v.push("error.retryable missing");
  else if (typeof value.retryable !== "boolean") v.push("error.retryable is not a boolean");
  const after = value.retry_after_ms;
  if (after !== undefined && (!Number.isInteger(after) || (after as number) < 0)) {
    v.push("error.retry_after_ms is not an integer >= 0");
  }
  const details = value.details;
  if (details !== undefined) {
    if (!isRecord(details)) v.push("error.details is not an object");
    else if (!Object.values(details).every((d) => typeof d === "string")) {
      v.push("error.details has a non-string value");
    }
  }
  return {
    error: {
      code: typeof code === "string" ? code : "",
      message: typeof value.message === "string" ? value.message : "",
      retryable: typeof value.retryable === "boolean" ? value.retryable : undefined,
      retry_after_ms: typeof after === "number" ? after : undefined,
      details: isRecord(details) ? (details as Record<string, string>) : undefined,
    },
    violations: v,
  };
}

/**
 * Checks a request/response stdout: exactly one JSON envelope followed by exactly one `\n`
 * (docs/spec/protocol.md §1.4), with the docs/spec/protocol.md §3.1 members, and an exit status
 * that is the code's (docs/spec/protocol.md §3.3).
 *
 * @example checkEnvelopeStdout('{"ok":true,"protocol_version":"1","result":{}}\n', 0).violations // []
 */
export function checkEnvelopeStdout(stdout: string, exitCode: number | null): EnvelopeCheck {
  const v: string[] = [];
  if (!stdout.endsWith("\n")) {
    return { envelope: undefined, violations: ["stdout is not one envelope followed by \\n"] };
  }
  const body = stdout.slice(0, -1);
  if (body.endsWith("\n") || body.endsWith("\r") || body.trim() === "") {
    return { envelope: undefined, violations: ["stdout is not one envelope followed by \\n"] };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return { envelope: undefined, violations: ["stdout is not one JSON document"] };
  }
  if (!isRecord(doc)) return { envelope: undefined, violations: ["stdout is not a JSON object"] };
  if (doc.protocol_version !== "1") v.push('protocol_version is not "1"');
  if (typeof doc.ok !== "boolean") {
    return { envelope: undefined, violations: [...v, "ok is not a boolean"] };
  }
  if (doc.ok) {
    if (!isRecord(doc.result)) v.push("ok envelope without an object result");
    if ("error" in doc) v.push("ok envelope carries error");
    if (exitCode !== 0) v.push(`exit ${exitCode} with an ok envelope`);
    return {
      envelope: { ok: true, result: isRecord(doc.result) ? doc.result : {}, error: undefined },
      violations: v,
    };
  }
  if ("result" in doc) v.push("error envelope carries result");
  const checked = checkErrorObject(doc.error);
  v.push(...checked.violations);
  const expected = checked.error ? CONFORMANCE_EXIT_STATUS[checked.error.code] : undefined;
  if (expected !== undefined && exitCode !== expected) {
    v.push(`exit ${exitCode} does not match code ${checked.error?.code} (${expected})`);
  }
  return { envelope: { ok: false, result: undefined, error: checked.error }, violations: v };
}

/** One parsed NDJSON watch event (`event` is the discriminator). */
export type WatchEvent = Record<string, unknown> & { readonly event: string };

/**
 * Checks a `message watch` stdout (docs/spec/protocol.md §5): every line `\n`-terminated, no blank
 * line, each one JSON object with a string `event`; `ready` first and exactly once (when any event
 * was written); `error` events carry a valid error object with `retryable`.
 *
 * @example checkNdjsonStdout('{"event":"ready","protocol_version":"1","session_id":"s","mode":"push"}\n').violations // []
 */
export function checkNdjsonStdout(stdout: string): {
  readonly events: WatchEvent[];
  readonly violations: string[];
} {
  const v: string[] = [];
  const events: WatchEvent[] = [];
  if (stdout === "") return { events, violations: v };
  if (!stdout.endsWith("\n")) v.push("watch stdout does not end with \\n");
  const lines = stdout.split("\n");
  lines.pop();
  let readyCount = 0;
  lines.forEach((line, index) => {
    if (line === "") {
      v.push(`watch line ${index + 1} is blank`);
      return;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      v.push(`watch line ${index + 1} is not JSON`);
      return;
    }
    if (!isRecord(doc) || typeof doc.event !== "string") {
      v.push(`watch line ${index + 1} has no event`);
      return;
    }
    const event = doc as WatchEvent;
    events.push(event);
    if (event.event === "ready") {
      readyCount++;
      if (index !== 0) v.push("ready is not the first event");
      if (event.protocol_version !== "1") v.push('ready.protocol_version is not "1"');
      if (event.mode !== "push" && event.mode !== "polling") v.push("ready.mode is invalid");
      if (typeof event.session_id !== "string") v.push("ready.session_id missing");
    } else if (event.event === "error") {
      v.push(...checkErrorObject(event.error).violations);
    } else if (event.event === "message" && !isRecord(event.message)) {
      v.push("message event without a message object");
    }
  });
  if (readyCount > 1) v.push("more than one ready event");
  return { events, violations: v };
}
