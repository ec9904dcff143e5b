import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The members of `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` the stand-in writes
 * (docs/spec/claude-code.md §5, docs/spec/cross-session.md §12).
 */
export interface SessionRegistryEntry {
  readonly pid: number;
  readonly sessionId: string;
  readonly cwd: string;
  readonly startedAt: number;
  readonly version: string;
  readonly peerProtocol: 1;
  readonly kind: string;
  readonly entrypoint: string;
  readonly messagingSocketPath: string;
  readonly name: string;
  readonly nameSource: "user" | "derived";
  readonly status: "busy" | "idle";
  readonly updatedAt: number;
}

/** `<configDir>/sessions/<pid>.json`. */
export function registryPath(configDir: string, pid: number): string {
  return join(configDir, "sessions", `${pid}.json`);
}

/** Writes the registry file atomically (temp + rename): folder 0700, file 0600. */
export function writeRegistry(configDir: string, entry: SessionRegistryEntry): void {
  const dir = join(configDir, "sessions");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = registryPath(configDir, entry.pid);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 });
  renameSync(temp, path);
}
