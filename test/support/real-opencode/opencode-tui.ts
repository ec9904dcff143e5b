/**
 * One interactive OpenCode TUI under tmux for the tests (docs/49-opencode.md): a private home
 * (or a person's), the configuration that points it at the loopback fake model, and `--port` so
 * its server listens on 127.0.0.1 (the only way a TUI is reachable from outside, measured).
 */
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { TmuxClaude } from "../real-claude/index.ts";
import { until } from "../until.ts";
import type { FakeOpenCodeModel } from "./fake-opencode-model.ts";
import { openCodeConfigDeps } from "./opencode-executable.ts";

/** A running OpenCode TUI and where its server listens. */
export interface OpenCodeTui {
  readonly tmux: TmuxClaude;
  /** `http://127.0.0.1:<port>`, or `""` for a TUI started without `--port`. */
  readonly origin: string;
  readonly home: string;
  readonly project: string;
  /** GET a path of the TUI's server as JSON. */
  get(path: string): Promise<unknown>;
  /** POST JSON to a path of the TUI's server; the status. */
  post(path: string, body: unknown): Promise<number>;
}

/** Whose OpenCode: a person's home, checkout and terminal environment (default: fresh ones in `dir`). */
export interface OpenCodePersonOptions {
  readonly home: string;
  readonly project: string;
  readonly env: Readonly<Record<string, string>>;
  /** Start without `--port` (default with): the TUI then listens nowhere. */
  readonly unreachable?: boolean;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * Writes OpenCode's global configuration for `model` into `<home>/.config/opencode/opencode.json`
 * (provider `fake` through the built-in OpenAI-compatible package, no update, no sharing), and
 * seeds that folder with the packages OpenCode would otherwise fetch from the npm registry at its
 * start (the cached {@link openCodeConfigDeps} of `executable`'s version; `node_modules` linked).
 */
export function writeOpenCodeConfig(
  home: string,
  model: FakeOpenCodeModel,
  executable: string,
): void {
  const dir = join(home, ".config", "opencode");
  mkdirSync(dir, { recursive: true });
  const deps = openCodeConfigDeps(executable);
  if (!existsSync(join(dir, "node_modules"))) {
    copyFileSync(join(deps, "package.json"), join(dir, "package.json"));
    copyFileSync(join(deps, "package-lock.json"), join(dir, "package-lock.json"));
    symlinkSync(join(deps, "node_modules"), join(dir, "node_modules"));
  }
  writeFileSync(
    join(dir, "opencode.json"),
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      model: "fake/fake-model",
      small_model: "fake/fake-model",
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL: model.url, apiKey: "dummy-key" },
          models: { "fake-model": { name: "Fake model" } },
        },
      },
    }),
  );
}

/**
 * Starts OpenCode's TUI from `executable` with `--port` (unless `person.unreachable`) in the
 * person's checkout (default `dir/project`, home `dir/home`); resolves once its server answers and
 * the prompt is on screen.
 * `dir` also holds the tmux server.
 */
export async function startOpenCodeTui(
  executable: string,
  dir: string,
  model: FakeOpenCodeModel,
  person?: OpenCodePersonOptions,
): Promise<OpenCodeTui> {
  const home = person?.home ?? join(dir, "home");
  const project = person?.project ?? join(dir, "project");
  mkdirSync(project, { recursive: true });
  writeOpenCodeConfig(home, model, executable);
  // OpenCode (a Bun program) unpacks native libraries and keeps files of its own in TMPDIR:
  // inside the test's own folder, which goes with it.
  const temp = join(dir, "tmp");
  mkdirSync(temp, { recursive: true });
  const port = await freePort();
  const env: Record<string, string> = {
    ...person?.env,
    HOME: home,
    PATH: person?.env.PATH ?? process.env.PATH ?? "/usr/bin:/bin",
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: person?.env.XDG_STATE_HOME ?? join(home, ".local", "state"),
    TMPDIR: temp,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  };
  const listens = person?.unreachable !== true;
  const tmux = await TmuxClaude.start({
    executable,
    args: listens ? ["--port", String(port)] : [],
    cwd: project,
    env,
    dir,
    columns: 200,
    rows: 50,
  });
  const origin = `http://127.0.0.1:${port}`;
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) });
    return response.json();
  };
  const post = async (path: string, body: unknown): Promise<number> => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status;
  };
  if (!listens) {
    await tmux.waitForPane("Ask anything", 60_000, "OpenCode's prompt");
    return { tmux, origin: "", home, project, get, post };
  }
  let healthy = false;
  // Every half second: each poll costs OpenCode CPU while it starts.
  await until(
    "OpenCode's server",
    async () => {
      try {
        healthy = ((await get("/global/health")) as { healthy?: boolean }).healthy === true;
      } catch {
        healthy = false;
      }
      return healthy;
    },
    60_000,
    500,
  );
  await tmux.waitForPane("Ask anything", 60_000, "OpenCode's prompt");
  return { tmux, origin, home, project, get, post };
}
