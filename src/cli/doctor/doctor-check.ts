/** How one `brigade doctor` check came out: `warn` is shown but does not fail the run. */
export type DoctorStatus = "pass" | "warn" | "fail" | "skip";

/**
 * One line of `brigade doctor`: what was checked and found (`detail`), and for `fail` and `warn`
 * what to do about it (`fix`). Text is ours or sanitised: nothing a server or a file chose.
 *
 * @example { title: "Node.js", status: "pass", detail: "20.20.2 (needs 20.19 or newer)" }
 */
export interface DoctorCheck {
  readonly title: string;
  readonly status: DoctorStatus;
  readonly detail: string;
  readonly fix?: string;
}

/** The check's line(s) as printed: a status word, the title, the detail, then `fix:` indented. */
export function renderCheck(check: DoctorCheck): string {
  const word = { pass: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" }[check.status];
  const line = `  ${word}  ${check.title}: ${check.detail}\n`;
  return check.fix === undefined ? line : `${line}        fix: ${check.fix}\n`;
}
