import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { sanitizeName } from "../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../harness/adapter/index.ts";
import { resolveSessionTeam } from "../harness/binding/index.ts";
import { ERROR_MESSAGES, isBapError } from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";
import { personTerminalRefusal } from "./person-context.ts";
import { SESSION_TEAM_LINES } from "./team/team-report.ts";

const HELP = `usage: brigade dashboard [--no-open]

Prints a one-time link that signs you into your team's dashboard on its brigade serve, in a
browser: your team's sessions, what became of every message you sent, what waits for you, and
(for the creator) the team's admin. The link works once, for 5 minutes; the browser then holds a
session cookie for 12 hours (sign out on the page). Where a browser can be opened (a desktop
session), it is opened with the link; --no-open only prints it.

Your own terminal only: refused inside an agent session (Claude Code, Gemini CLI, Codex, Qwen
Code, Cline), where the model could open your dashboard as you, and when stdin or stdout is not
a terminal. The team is this folder's (.brigade.json).
`;

/** The refusal inside an agent session: a person's act. */
export const DASHBOARD_IN_SESSION_LINE =
  "brigade dashboard: this is a person's act: run it in your own terminal, not from an agent session\n";

/** The refusal without a terminal (a pipe, a script, an agent's shell tool). */
export const DASHBOARD_NO_TERMINAL_LINE =
  "brigade dashboard: this is a person's act: run it in your own terminal (stdin and stdout must be a terminal)\n";

/** How a desktop opens a URL here, or `null` when there is no desktop to open it on. */
function opener(env: Readonly<Record<string, string | undefined>>): string | null {
  if (process.platform === "darwin") return "open";
  if (process.platform !== "linux") return null;
  if ((env.DISPLAY ?? "") === "" && (env.WAYLAND_DISPLAY ?? "") === "") return null;
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (folder === "") continue;
    try {
      accessSync(join(folder, "xdg-open"), constants.X_OK);
      return join(folder, "xdg-open");
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/**
 * `brigade dashboard [--no-open]`: asks the folder's team server for a one-time login link
 * (`POST /v1/teams/:team/dashboard-login`, docs/52-dashboard.md) and prints it, then opens it
 * with the desktop's opener (`xdg-open` under a display, `open` on macOS) unless `--no-open`.
 * Exit 0; 2 inside an agent session, without a terminal, or on a bad flag (nothing asked); 11 no
 * team for the folder;
 * an adapter failure's status (one line naming the code).
 *
 * @example await runDashboard([], io) // prints "Sign in: http://127.0.0.1:7777/dashboard/login?code=…"
 */
export async function runDashboard(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandFlags("dashboard", argv, {
    "no-open": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  // The link signs in as the person: only their own terminal gets one (docs/43-session-cli.md,
  // "The person's terminal", says what this tells apart and what it cannot).
  const refusal = await personTerminalRefusal(io);
  if (refusal !== undefined) {
    io.stderr(refusal === "no_terminal" ? DASHBOARD_NO_TERMINAL_LINE : DASHBOARD_IN_SESSION_LINE);
    return 2;
  }
  const team = resolveSessionTeam({ cwd: process.cwd(), configDir: harnessConfigDir(io.env) });
  if (!team.ok) {
    io.stderr(`brigade dashboard: ${SESSION_TEAM_LINES[team.reason] ?? team.reason}\n`);
    return 11;
  }
  let login: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["dashboardLogin"]>>;
  try {
    login = await openHarnessAdapter(team).dashboardLogin();
  } catch (error) {
    if (!isBapError(error)) throw error;
    // A server's message passes through the adapter unchanged: only the code and our fixed text.
    io.stderr(`brigade dashboard: ${error.code}: ${ERROR_MESSAGES[error.code]}\n`);
    return error.exitStatus;
  }
  const link = `${team.server.replace(/\/+$/, "")}${login.login_path}`;
  io.stdout(
    `Team "${sanitizeName(team.teamName)}": your dashboard sign-in link (works once, until ${login.expires_at}; keep it to yourself):\n${link}\n`,
  );
  const open = values["no-open"] === true ? null : opener(io.env);
  if (open !== null) {
    // The link is on the opener's command line for a moment: it is good once and for 5 minutes.
    const child = spawn(open, [link], { detached: true, stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
    io.stdout("Opened in your browser.\n");
  }
  return 0;
}
