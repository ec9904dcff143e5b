import type { ByPidMap } from "../../src/harness/state/index.ts";

/**
 * A complete, valid by-pid map for tests (Claude pid 4242, session `s-1` of team `t-1` "core",
 * inbound `accept`, frame level `open`, a socket path), with `over` laid on top. One fixture, so
 * a new map member is added in one place.
 *
 * @example writeByPidMap(layout, sampleByPidMap({ claude_pid: 777, socket_path: "" }));
 */
export function sampleByPidMap(over: Partial<ByPidMap> = {}): ByPidMap {
  return {
    claude_pid: 4242,
    claude_session_id: "native",
    brigade_session_id: "s-1",
    team_ref: "t-1",
    team_name: "core",
    session_name: "web",
    permission_mode: "default",
    non_interactive: false,
    inbound: "accept",
    frame_level: "open",
    frame_text: "",
    socket_path: "/tmp/cc-socks/4242.sock",
    team_key: "team-1",
    config_dir: "",
    adapter_command: [],
    plugin_bin: "",
    harness_version: "2.1.328",
    registered_at: "2026-10-02T09:15:42Z",
    updated_at: "2026-10-02T09:15:42Z",
    ...over,
  };
}
