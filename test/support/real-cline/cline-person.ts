/**
 * A person's Cline on the test machine (docs/49-cline.md "The real-client test"): their Cline
 * folder with the model pointing at the loopback fake (`cline auth -p openai … -b <url>`), MCP
 * settings of their own, and headless `cline task --json -y` runs in their checkout. Cline's
 * self-update is off (`CLINE_NO_AUTO_UPDATE=1`): without it every start runs `npm install -g`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Person } from "../plugin-world.ts";
import type { FakeClineApi } from "./fake-cline-api.ts";

const run = promisify(execFile);

/** A person's Cline folder and the environment of their terminal with it. */
export interface ClineHome {
  /** `~/.cline`. */
  readonly dir: string;
  /** `~/.cline/data/settings/cline_mcp_settings.json`. */
  readonly settingsFile: string;
  /** What the person's own settings file held before Brigade's install. */
  readonly original: string;
  /** The person's terminal environment plus `CLINE_NO_AUTO_UPDATE=1` and a `TMPDIR` of theirs. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Makes `person`'s Cline folder: `cline auth` for the provider `openai` at the fake `api` (model
 * `fake-model`), then MCP settings of their own (a disabled server, written with four-space
 * indentation and a final newline, so a byte-for-byte restore is told from a re-serialization).
 */
export async function clineHomeFor(
  person: Person,
  script: string,
  api: FakeClineApi,
): Promise<ClineHome> {
  // Cline leaves a folder of its own in TMPDIR: inside the person's home, it goes with the world.
  const tmp = join(person.home, "tmp");
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  const env = { ...person.env, TMPDIR: tmp, CLINE_NO_AUTO_UPDATE: "1" };
  await run(
    process.execPath,
    [script, "auth", "-p", "openai", "-k", "sk-fake-loopback", "-m", "fake-model", "-b", api.url],
    { cwd: person.checkout, env, timeout: 60_000 },
  );
  const dir = join(person.home, ".cline");
  const settingsFile = join(dir, "data", "settings", "cline_mcp_settings.json");
  mkdirSync(join(dir, "data", "settings"), { recursive: true });
  const original = `${JSON.stringify(
    { mcpServers: { notes: { command: "/bin/true", args: [], disabled: true } } },
    null,
    4,
  )}\n`;
  writeFileSync(settingsFile, original);
  return { dir, settingsFile, original, env };
}

/** A finished task. */
export interface ClineExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One headless `cline task --json -y <prompt>` of a person in a folder, started at once. */
export class ClineTask {
  readonly child: ChildProcess;
  readonly exited: Promise<ClineExit>;
  #stdout = "";

  private constructor(child: ChildProcess) {
    this.child = child;
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      this.#stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    this.exited = new Promise((resolve) => {
      child.once("close", (code) => resolve({ code, stdout: this.#stdout, stderr }));
    });
  }

  /** Starts the task: Node runs Cline's script directly, so the child is the Cline process. */
  static start(script: string, home: ClineHome, cwd: string, prompt: string): ClineTask {
    const child = spawn(process.execPath, [script, "task", "--json", "-y", prompt], {
      cwd,
      env: home.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new ClineTask(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** The task id Cline printed first (`{"type":"task_started","taskId":…}`), or `""`. */
  taskId(): string {
    for (const line of this.#stdout.split("\n")) {
      try {
        const event = JSON.parse(line) as { type?: unknown; taskId?: unknown };
        if (event.type === "task_started" && typeof event.taskId === "string") return event.taskId;
      } catch {
        // a partial line or another event
      }
    }
    return "";
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      await this.exited;
    }
  }
}
