/**
 * Provenance of an agent message (docs/spec/formats.md §3.2): who sent it, from which workspace,
 * and how the platform established it. Metadata, never authentication.
 *
 * - `fromSession`: the sending session's id; non-blank under `goTrimSpace`, kept untrimmed.
 * - `workspace`: absent for same-workspace senders (v1 senders never set it); never `""` after parse.
 * - `mode`: `"injected"` or `"self-declared"` from our producers; required by `compose`, optional
 *   when parsing (pre-mode sentinels); the codec does not validate its value.
 *
 * @example const origin: Origin = { fromSession: "ses_7Qk2", mode: "injected" };
 */
export interface Origin {
  readonly fromSession: string;
  readonly workspace?: string;
  readonly mode?: string;
}
