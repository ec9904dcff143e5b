import { realpathSync } from "node:fs";
import { showsClaudeCodeSession } from "../../harness/claude-code/index.ts";
import { brigadeVersion, currentUid } from "../../local-files/index.ts";
import { approveInboundSetting, type InboundApproval } from "../claude-settings/approve-inbound.ts";
import { askOnTerminal, PERSON_ACT_LINE } from "../claude-settings/ask-person.ts";
import type { CliIo } from "../cli-io.ts";
import { parseCommandFlags } from "../parse-command-flags.ts";
import { type DoctorCheck, renderCheck } from "./doctor-check.ts";
import {
  checkBinding,
  checkClaudeCode,
  checkCli,
  checkCredential,
  checkInboundSettings,
  checkNode,
  checkPlugin,
  checkServer,
  checkWatchers,
  type DoctorContext,
  sessionTeamHere,
} from "./doctor-checks.ts";

const HELP = `usage: brigade doctor [--fix]

Checks this machine and this checkout, one line per check with a fix for each failure:
Node.js, the brigade command on PATH and the Claude Code plugin (both this CLI's version), the
checkout's .brigade.json and your consent (as a session started here would see them), the team
server (reachable, and over TLS when not on this machine), your credential, the watcher of each
running session, Claude Code's version against the ones Brigade was verified on, and the
crossSessionInbound settings Brigade reads. Run it in your own terminal, in the checkout.

--fix  then asks, on your terminal, whether Claude Code's user settings may say
       "crossSessionInbound": "accept", which lets sessions that bypass permission prompts
       receive teammates' messages live (without it they get them at their next prompt or tool
       call). The setting is Claude Code's own and holds for every sender, so nothing changes
       without your yes; brigade uninstall puts back what was there. Refused inside a Claude
       Code session and without a terminal.

Exit status: 0 when nothing failed ("warn" and "skip" do not fail), 1 otherwise, 2 for an
argument, inside a Claude Code session with --fix, or --fix without a terminal.
`;

/** How long each network check may take, ms. */
const DOCTOR_TIMEOUT_MS = 5_000;

function entryScript(): string {
  try {
    return realpathSync(process.argv[1] ?? "");
  } catch {
    return "";
  }
}

/**
 * Runs every check in order (docs/46-cli.md): the local ones first, then the team's server and
 * credential, which need a joined checkout (else `skip`). Never throws for what it finds.
 *
 * @example const checks = await runDoctorChecks(ctx); checks.some((c) => c.status === "fail")
 */
export async function runDoctorChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  const team = sessionTeamHere(ctx);
  return [
    checkNode(ctx),
    checkCli(ctx),
    checkPlugin(ctx),
    checkClaudeCode(ctx),
    checkBinding(team),
    ...(await checkServer(team, ctx)),
    await checkCredential(team, ctx),
    checkWatchers(ctx),
    checkInboundSettings(ctx, team),
  ];
}

/**
 * `brigade doctor [--fix]`: prints one line per check (`ok`, `warn`, `FAIL`, `skip`), a `fix:`
 * line under each failure and warning, and a summary. Exit 0 when no check failed, 1 when one
 * did, 2 for a usage error. `--fix` (refused, exit 2, on any sign of a Claude Code session) then
 * runs {@link approveInboundSetting}, whose non-zero status wins. `context` and `fixing` replace
 * parts of the surroundings in tests.
 *
 * @example await runDoctorWith([], processIo()) // 0 when all is well
 */
export async function runDoctorWith(
  argv: string[],
  io: CliIo,
  context: Partial<DoctorContext> = {},
  fixing: Partial<Pick<InboundApproval, "ask" | "uid" | "now">> = {},
): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  const { values } = parseCommandFlags("doctor", argv, { fix: { type: "boolean" } });
  if (values.fix === true && showsClaudeCodeSession(io.env)) {
    io.stderr(`brigade doctor --fix: ${PERSON_ACT_LINE}\n`);
    return 2;
  }
  const checks = await runDoctorChecks({
    env: io.env,
    cwd: process.cwd(),
    nodeVersion: process.versions.node,
    cliVersion: brigadeVersion(),
    cliScript: entryScript(),
    timeoutMs: DOCTOR_TIMEOUT_MS,
    ...context,
  });
  io.stdout(`brigade doctor (Brigade ${brigadeVersion()})\n`);
  for (const check of checks) io.stdout(renderCheck(check));
  const failed = checks.filter((c) => c.status === "fail").length;
  io.stdout(
    failed === 0
      ? "Nothing failed.\n"
      : `${failed} check${failed === 1 ? "" : "s"} failed: see the fix under each.\n`,
  );
  const status = failed === 0 ? 0 : 1;
  if (values.fix !== true) return status;
  const fixed = await approveInboundSetting({
    io,
    uid: fixing.uid ?? currentUid(),
    ask: fixing.ask ?? askOnTerminal,
    now: fixing.now ?? Date.now,
  });
  return fixed === 0 ? status : fixed;
}

/** The `doctor` command of the command table; see {@link runDoctorWith}. */
export const runDoctor = (argv: string[], io: CliIo): Promise<number> => runDoctorWith(argv, io);
