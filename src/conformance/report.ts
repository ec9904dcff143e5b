/** The outcome of one case in the docs/spec/protocol.md §12.1 report. */
export interface CaseResult {
  readonly id: string;
  readonly rule: string;
  readonly status: "pass" | "fail" | "skip";
  readonly duration_ms: number;
  /** Empty for a pass; the failure reasons joined with `; `, or the skip reason. */
  readonly reason: string;
  readonly notes?: readonly string[];
}

/** The `--json` report of docs/spec/protocol.md §12.1. */
export interface ConformanceReport {
  readonly adapter: {
    readonly name: string;
    readonly version: string;
    readonly command: readonly string[];
  };
  readonly protocol_version: string;
  readonly capabilities: readonly string[];
  readonly results: readonly CaseResult[];
  readonly summary: { readonly pass: number; readonly fail: number; readonly skip: number };
  readonly duration_ms: number;
  /** The `--shuffle` seed as a decimal string (a u64 does not fit a JSON number exactly). */
  readonly shuffle?: string;
}

/**
 * One human line: `C-30  FAIL  0.31s  <rule> — <reasons>` (the id padded to five columns; no
 * ` — …` tail for a pass).
 *
 * @example formatResultLine({ id: "C-01", rule: "r", status: "pass", duration_ms: 120, reason: "" }) // "C-01   PASS  0.12s  r"
 */
export function formatResultLine(result: CaseResult): string {
  const status = result.status.toUpperCase();
  const seconds = `${(result.duration_ms / 1000).toFixed(2)}s`;
  const tail = result.reason === "" ? "" : ` — ${result.reason}`;
  return `${result.id.padEnd(5)}  ${status}  ${seconds}  ${result.rule}${tail}`;
}

/**
 * Counts results by status.
 *
 * @example summarize([]) // { pass: 0, fail: 0, skip: 0 }
 */
export function summarize(results: readonly CaseResult[]): ConformanceReport["summary"] {
  let pass = 0;
  let fail = 0;
  let skip = 0;
  for (const r of results) {
    if (r.status === "pass") pass++;
    else if (r.status === "fail") fail++;
    else skip++;
  }
  return { pass, fail, skip };
}
