import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { PREFIX, SUFFIX } from "./constants.ts";
import { AgentMessageError } from "./errors.ts";
import { goJsonString } from "./go-json-string.ts";
import type { Origin } from "./origin.ts";
import { parse } from "./parse.ts";

/**
 * Prepends the v1 provenance sentinel line to `message` (docs/spec/formats.md §3.4):
 * `PREFIX + {"fromSession":…[,"workspace":…],"mode":…} + SUFFIX + "\n" + body`, where `body` is
 * `message` without its own leading valid sentinel (a re-send replaces the previous hop's origin,
 * so `compose(compose(m, o1), o2) === compose(m, o2)`). Values are written untrimmed with Go's
 * HTML-safe JSON escaping, so no value can end the comment or the line; `workspace` is written
 * only when non-empty. The LF is written even for an empty body. Unpaired surrogates in any input
 * become U+FFFD.
 *
 * @throws {AgentMessageError} code `EMPTY_FROM_SESSION`: `fromSession is required` when
 *   `goTrimSpace(origin.fromSession) === ""`; `fromSession is required: mode is required` when
 *   `origin.mode` is `""` or absent (its value is otherwise not validated).
 * @example
 * compose("Please rebase on main.", { fromSession: "ses_7Qk2", mode: "injected" })
 * // '<!-- lsp:agent-message-v1 {"fromSession":"ses_7Qk2","mode":"injected"} -->\nPlease rebase on main.'
 */
export function compose(message: string, origin: Origin): string {
  const rawFrom: unknown = origin.fromSession;
  const fromSession = typeof rawFrom === "string" ? toWellFormed(rawFrom) : "";
  if (goTrimSpace(fromSession) === "") throw new AgentMessageError("fromSession is required");
  const rawMode: unknown = origin.mode;
  if (typeof rawMode !== "string" || rawMode === "") {
    throw new AgentMessageError("fromSession is required: mode is required");
  }
  const rawWorkspace: unknown = origin.workspace;
  const workspace =
    typeof rawWorkspace === "string" && rawWorkspace !== "" ? toWellFormed(rawWorkspace) : "";
  const payload =
    `{"fromSession":${goJsonString(fromSession)}` +
    (workspace === "" ? "" : `,"workspace":${goJsonString(workspace)}`) +
    `,"mode":${goJsonString(toWellFormed(rawMode))}}`;
  const body = parse(message).text;
  return `${PREFIX}${payload}${SUFFIX}\n${body}`;
}
