/**
 * The binding file a harness's session start wrote for a person's session
 * (`<state>/sessions/by-harness/<harness>/<id>.json`, docs/48-mcp.md "Identity").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Person } from "./plugin-world.ts";

/** The members of a binding file the tests read. */
export interface HarnessBinding {
  /** The harness's own session (or thread) id. */
  readonly claude_session_id: string;
  /** The pid of the harness process the session runs in. */
  readonly claude_pid: number;
  readonly brigade_session_id: string;
  readonly team_ref: string;
  readonly team_name: string;
}

/**
 * The first binding `who` has for `harness` (`qwen`, `codex`, `opencode`…), or `undefined` while
 * none is written (or it is half written).
 */
export function harnessBinding(who: Person, harness: string): HarnessBinding | undefined {
  const folder = join(who.stateDir, "sessions", "by-harness", harness);
  try {
    const name = readdirSync(folder).find((n) => n.endsWith(".json"));
    if (name === undefined) return undefined;
    return JSON.parse(readFileSync(join(folder, name), "utf8")) as HarnessBinding;
  } catch {
    return undefined;
  }
}
