import { join, resolve } from "node:path";
import { ProfileStore } from "../../adapters/http/index.ts";
import { PrivateFileError } from "../../adapters/index.ts";
import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { openHarnessAdapter } from "../../harness/adapter/index.ts";
import {
  consentRecord,
  findTeamBinding,
  isValidTeamRef,
  locateCheckout,
  serializeTeamBinding,
  TEAM_BINDING_FILE_NAME,
  teamKeyFor,
} from "../../harness/binding/index.ts";
import { createFileExclusive } from "../../local-files/index.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { configDirOf } from "../config-folder.ts";
import { handOverJoinSecret } from "./hand-over-secret.ts";
import { joinSecretPath } from "./secret-placement.ts";
import { bindingProblem, CONSENT_POINTER_LINE, envServer, recordConsent } from "./team-context.ts";
import {
  checkTeamName,
  humanLabelOption,
  parseTeamFlags,
  serverOption,
  stringOption,
} from "./team-flags.ts";
import { CONFIG_NOT_WRITABLE, displayName, fail, reportAdapterError } from "./team-report.ts";

/**
 * `brigade team create <team-name>` (docs/44-team-binding.md): creates the team on the server
 * under a pending profile, hands the join secret over (the `--secret-file`, else shown once),
 * names the profile for the team, writes the checkout's `.brigade.json` (never replacing one) and
 * this checkout's consent. Exit 0, 2 (usage, a binding already there), 11 (no private config),
 * 1 (created, but a local step failed: said how), or the adapter failure's status.
 *
 * @example await teamCreate(["core", "--server", "http://127.0.0.1:7777"], io, "/home/dana/src/api");
 */
export async function teamCreate(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values, positionals } = parseTeamFlags(
    "create",
    argv,
    {
      server: { type: "string" },
      "secret-file": { type: "string" },
      "human-label": { type: "string" },
      "operator-key-file": { type: "string" },
    },
    1,
  );
  const teamName = checkTeamName(positionals[0] as string);
  const label = humanLabelOption(values);
  const secretOption = stringOption(values, "secret-file");
  const operatorKeyOption = stringOption(values, "operator-key-file");
  const configDir = configDirOf(io, "team create");
  if (typeof configDir !== "string") return configDir.status;
  const location = locateCheckout(cwd);
  if (location === undefined)
    return fail(io, "create", 2, "the current folder does not exist").status;
  const found = findTeamBinding(cwd);
  if (found.ok) {
    return fail(
      io,
      "create",
      2,
      "this checkout's .brigade.json already names a team: join it with `brigade team join --secret-file <path>`, or remove the file to create another",
    ).status;
  }
  const problem = bindingProblem(io, "create", found);
  if (problem !== undefined) return problem.status;
  const server = serverOption(values) ?? envServer(io);
  if (server === undefined) {
    throw new CliUsageError("no server: pass --server <url> or set BRIGADE_SERVER");
  }
  const secretPath = joinSecretPath(
    secretOption === undefined ? undefined : resolve(cwd, secretOption),
    configDir,
    teamName,
  );
  const bindingDir = location.repositoryTop ?? location.start;

  // The profile is named after the team (teamKeyFor), known only once the server created it:
  // create on a fresh temporary profile, then rename it without ever replacing a file.
  const pending = ProfileStore.pending(configDir);
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamCreate"]>>;
  try {
    pending.writeProfile({ server });
    const adapter = openHarnessAdapter(
      { configDir, teamKey: pending.profile },
      operatorKeyOption === undefined ? {} : { operatorKeyFile: resolve(cwd, operatorKeyOption) },
    );
    result = await adapter.teamCreate({
      team_name: teamName,
      ...(label === undefined ? {} : { human_label: label }),
    });
  } catch (error) {
    pending.discard();
    if (error instanceof PrivateFileError) {
      return fail(io, "create", 11, CONFIG_NOT_WRITABLE).status;
    }
    return reportAdapterError(io, "create", error, {
      operatorKeyFile: operatorKeyOption !== undefined,
    });
  }

  // The secret first: whatever fails next, the only copy of it must reach the person.
  const secretInFile = handOverJoinSecret(io, {
    sub: "create",
    secret: result.join_secret,
    server,
    path: secretPath,
    noun: "the join secret",
  });

  const teamKey = teamKeyFor(server, result.team_ref);
  const moved = pending.moveTo(teamKey);
  if (!moved.ok) {
    return fail(
      io,
      "create",
      1,
      `the team was created, but its profile could not be named for it (${moved.reason}); the credential stays under profile ${pending.profile}`,
    ).status;
  }
  if (!isValidTeamRef(result.team_ref)) {
    return fail(io, "create", 1, "the server named the team with an unusable team_ref").status;
  }
  const bindingPath = join(bindingDir, TEAM_BINDING_FILE_NAME);
  const binding = { server, team_ref: result.team_ref, team_name: result.team_name };
  // Exactly 0644 (it is meant to be committed and shared), whatever the umask.
  const written = createFileExclusive(bindingPath, serializeTeamBinding(binding), { mode: 0o644 });
  if (!written.ok) {
    return fail(
      io,
      "create",
      1,
      "the team was created, but .brigade.json could not be written (it may have appeared meanwhile)",
    ).status;
  }
  let pointed = false;
  try {
    pointed = recordConsent(
      io,
      configDir,
      consentRecord({
        checkout: bindingDir,
        server,
        teamRef: result.team_ref,
        teamName: result.team_name,
      }),
    );
  } catch {
    return fail(io, "create", 11, `the consent record could not be written: ${CONFIG_NOT_WRITABLE}`)
      .status;
  }
  io.stdout(
    [
      `Created team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}) on ${server}; this checkout is joined.`,
      `Wrote ${TEAM_BINDING_FILE_NAME} at ${location.repositoryTop === undefined ? "this folder (no repository found)" : "the repository top"}.`,
      secretInFile ? `The join secret is in ${secretPath} (mode 0600); it was not printed.` : "",
      pointed ? CONSENT_POINTER_LINE : "",
      "Next steps:",
      location.repositoryTop === undefined
        ? `  1. Copy ${TEAM_BINDING_FILE_NAME} into each teammate's folder (this folder is in no git repository, so there is nothing to commit it to).`
        : `  1. Commit ${TEAM_BINDING_FILE_NAME} so your teammates' checkouts name the team.`,
      "  2. Give the join secret to each teammate privately (never in chat, an issue or the repository).",
      secretInFile
        ? "  3. Each teammate runs, in their own terminal inside their clone (the file also names the server):"
        : "  3. Each teammate saves it to a file and runs, in their own terminal inside their clone:",
      secretInFile
        ? "       brigade team join --secret-file <path>"
        : `       brigade team join --secret-file <path> --server ${server}`,
      "",
    ]
      .filter((line, i, all) => line !== "" || i === all.length - 1)
      .join("\n"),
  );
  return 0;
}
