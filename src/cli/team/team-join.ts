import { resolve } from "node:path";
import { normalizeServerUrl, ProfileStore } from "../../adapters/http/index.ts";
import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { openHarnessAdapter } from "../../harness/adapter/index.ts";
import {
  consentRecord,
  findTeamBinding,
  type JoinSecretFileRead,
  type JoinSecretFileRefusal,
  MAX_JOIN_SECRET_FILE_BYTES,
  parseJoinSecretFile,
  readJoinSecretFile,
  TEAM_BINDING_FILE_NAME,
  teamKeyFor,
} from "../../harness/binding/index.ts";
import { type CliIo, CliUsageError, readUpTo } from "../cli-io.ts";
import { configDirOf } from "../config-folder.ts";
import { promptOnTerminal } from "../terminal-prompt.ts";
import { bindingProblem, CONSENT_POINTER_LINE, envServer, recordConsent } from "./team-context.ts";
import { humanLabelOption, parseTeamFlags, serverOption, stringOption } from "./team-flags.ts";
import {
  CONFIG_NOT_WRITABLE,
  displayName,
  type Failed,
  fail,
  reportAdapterError,
} from "./team-report.ts";

/**
 * True when the person already vouched for the binding's server and team: the team's profile
 * (named by `teamKeyFor(server, team)`) holds a credential from an earlier join on that very
 * server (a rejoin after `team leave`, or another checkout). A consent record is written only
 * after such a join, so it adds nothing.
 */
function alreadyVouched(
  configDir: string,
  binding: { readonly server: string; readonly team_ref: string },
): boolean {
  const store = new ProfileStore(configDir, teamKeyFor(binding.server, binding.team_ref));
  const profile = store.readProfile();
  return (
    profile.kind === "ok" &&
    profile.value.server !== undefined &&
    normalizeServerUrl(profile.value.server) === binding.server &&
    store.readCredential().kind === "ok"
  );
}

/** The line for each refusal of the `--secret-file`, with its exit status. */
const SECRET_FILE_REFUSALS: Readonly<
  Record<JoinSecretFileRefusal, Failed & { readonly line: string }>
> = {
  cannot_open: { status: 2, line: "cannot open the --secret-file" },
  not_regular: { status: 2, line: "the --secret-file is not a regular file" },
  too_large: { status: 2, line: "the --secret-file is larger than 4 KiB: it is not a join secret" },
  not_a_join_secret: {
    status: 3,
    line: "the --secret-file does not hold a join secret (brg1.<team>.<secret>, then an optional line server <url>)",
  },
};

/** The line for each refusal of a pasted (or piped) invitation or join secret. */
const PASTED_REFUSALS: Readonly<Record<JoinSecretFileRefusal, Failed & { readonly line: string }>> =
  {
    cannot_open: {
      status: 2,
      line: "nothing was pasted: paste the invitation line, or pass --secret-file <path>",
    },
    not_regular: {
      status: 2,
      line: "nothing was pasted: paste the invitation line, or pass --secret-file <path>",
    },
    too_large: {
      status: 2,
      line: "the input is larger than 4 KiB: it is not an invitation or a join secret",
    },
    not_a_join_secret: {
      status: 3,
      line: "that is not an invitation or a join secret (brg1.<team>.<secret>, optionally followed by server <url>)",
    },
  };

/**
 * The invitation or join secret from stdin when no `--secret-file` is given: asked on the
 * terminal without echo (so it stays off the screen and out of the shell's history), or read
 * from a pipe (`pbpaste | brigade team join`), at most 4 KiB, in the forms of a join-secret file
 * (`parseJoinSecretFile`: the one line `brigade team invite` prints, or the two lines of a
 * secret file).
 */
async function readPastedSecret(io: CliIo): Promise<JoinSecretFileRead> {
  let bytes: Uint8Array;
  if (io.stdin === process.stdin && process.stdin.isTTY === true) {
    const answer = await promptOnTerminal(
      "Paste the invitation (or join secret) and press Enter; it is not shown: ",
      { secret: true },
    );
    bytes = new TextEncoder().encode(answer);
  } else {
    bytes = await readUpTo(io.stdin, MAX_JOIN_SECRET_FILE_BYTES + 1);
  }
  if (bytes.byteLength > MAX_JOIN_SECRET_FILE_BYTES) return { ok: false, reason: "too_large" };
  if (bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
    return { ok: false, reason: "cannot_open" };
  }
  return parseJoinSecretFile(bytes);
}

/**
 * `brigade team join [--secret-file <path>]` (docs/44-team-binding.md): joins the team the secret
 * (the team's join secret or an invitation; without `--secret-file`, pasted on the terminal
 * unseen, or piped on stdin) names, sending the secret only to a server the person vouched for (`--server`, the secret
 * file's `server` line, or an earlier join of that very team), never to a server a checkout's
 * `.brigade.json` names on its own; records this checkout's consent when its binding names the
 * team. Exit 0, 2 (usage or a refusal; nothing sent), 3 (no join secret in the file), 11 (no
 * private config), or the adapter failure's status.
 *
 * @example await teamJoin(["--secret-file", "team.secret"], io, "/home/lee/src/api");
 */
export async function teamJoin(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parseTeamFlags(
    "join",
    argv,
    {
      server: { type: "string" },
      "secret-file": { type: "string" },
      "human-label": { type: "string" },
    },
    0,
  );
  const secretOption = stringOption(values, "secret-file");
  const label = humanLabelOption(values);
  const serverFlag = serverOption(values);
  const configDir = configDirOf(io, "team join");
  if (typeof configDir !== "string") return configDir.status;
  const read =
    secretOption === undefined
      ? await readPastedSecret(io)
      : readJoinSecretFile(resolve(cwd, secretOption));
  if (!read.ok) {
    const refusal =
      secretOption === undefined ? PASTED_REFUSALS[read.reason] : SECRET_FILE_REFUSALS[read.reason];
    return fail(io, "join", refusal.status, refusal.line).status;
  }
  const secret = read.secret;
  const found = findTeamBinding(cwd);
  const problem = bindingProblem(io, "join", found);
  if (problem !== undefined) return problem.status;
  // The server the person vouches for: typed (--server) or carried with the secret. A checkout's
  // .brigade.json is the repository's word, and a fork or a hostile change can name any server:
  // on its word alone the secret (a bearer capability) would go there, and every later session.
  if (serverFlag !== undefined && read.server !== undefined && serverFlag !== read.server) {
    return fail(
      io,
      "join",
      2,
      "--server differs from the server the --secret-file names; nothing was sent",
    ).status;
  }
  const vouched = serverFlag ?? read.server;
  let server: string | undefined;
  if (found.ok) {
    if (found.binding.team_ref !== secret.teamRef) {
      return fail(
        io,
        "join",
        2,
        "the join secret is for another team than this checkout's .brigade.json names; nothing was sent",
      ).status;
    }
    if (vouched !== undefined && vouched !== found.binding.server) {
      return fail(
        io,
        "join",
        2,
        "this checkout's .brigade.json names another server than the one given with the secret (--server or the --secret-file); nothing was sent",
      ).status;
    }
    if (vouched === undefined && !alreadyVouched(configDir, found.binding)) {
      return fail(
        io,
        "join",
        2,
        "a join secret goes only to a server you name: pass --server <url> (the server your teammate gave you with the secret), or use the file brigade team create --secret-file wrote; nothing was sent",
      ).status;
    }
    server = found.binding.server;
  } else {
    server = vouched ?? envServer(io);
  }
  if (server === undefined) {
    throw new CliUsageError(
      "no server: run this inside a checkout whose .brigade.json names the team, or pass --server <url>",
    );
  }
  const adapter = openHarnessAdapter({ configDir, teamKey: teamKeyFor(server, secret.teamRef) });
  let result: Awaited<ReturnType<typeof adapter.teamJoin>>;
  try {
    result = await adapter.teamJoin({
      join_secret: secret.reveal(),
      ...(label === undefined ? {} : { human_label: label }),
      backend: { server },
    });
  } catch (error) {
    return reportAdapterError(io, "join", error);
  }
  const name = displayName(result.team_name);
  const lines = [
    `${result.rejoined ? "Rejoined" : "Joined"} team "${name}" (${sanitizeAttribute(result.team_ref)}) on ${server} as ${sanitizeAttribute(result.principal_ref)}.`,
  ];
  if (found.ok && result.team_ref === secret.teamRef) {
    try {
      const pointed = recordConsent(
        io,
        configDir,
        consentRecord({
          checkout: found.checkout,
          server,
          teamRef: result.team_ref,
          teamName: result.team_name,
        }),
      );
      if (pointed) lines.push(CONSENT_POINTER_LINE);
    } catch {
      return fail(
        io,
        "join",
        11,
        `joined, but the consent record could not be written: ${CONFIG_NOT_WRITABLE}`,
      ).status;
    }
    lines.push("Claude Code sessions started in this checkout now connect to the team.");
  } else {
    lines.push(
      `No ${TEAM_BINDING_FILE_NAME} binds this folder to the team, so no session connects yet: run this command again inside a checkout whose ${TEAM_BINDING_FILE_NAME} names it.`,
    );
  }
  lines.push(
    secretOption === undefined
      ? "Nothing of the invitation was stored on this machine."
      : "You may delete the secret file now.",
    "",
  );
  io.stdout(lines.join("\n"));
  return 0;
}
