import type { SessionRegistration } from "../../src/protocol/index.ts";

/**
 * A valid session registration document (docs/spec/protocol.md §4.3) named `name`: harness
 * `"test"` version `"1"`, busy, accepting messages — each member replaceable through `overrides`.
 *
 * @example sessionRegistration("inbox", { activity: "idle" })
 */
export function sessionRegistration(
  name: string,
  overrides: Partial<SessionRegistration> = {},
): SessionRegistration {
  return {
    harness: "test",
    harness_version: "1",
    session_name: name,
    activity: "busy",
    inbound: "accept",
    ...overrides,
  };
}
