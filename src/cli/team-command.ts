import { randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { normalizeServerUrl, ProfileStore } from "../adapters/http/index.ts";
import { PrivateFileError } from "../adapters/index.ts";
import {
  oneLine,
  sanitizeAttribute,
  sanitizeLabel,
  sanitizeName,
} from "../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../harness/adapter/index.ts";
import {
  consentRecord,
  deleteConsent,
  findTeamBinding,
  isValidTeamRef,
  locateCheckout,
  readConsent,
  resolveSessionTeam,
  type SessionTeam,
  serializeTeamBinding,
  TEAM_BINDING_FILE_NAME,
  type TeamBindingLookup,
  teamKeyFor,
  writeConsent,
} from "../harness/binding/index.ts";
import {
  decodeUtf8Strict,
  ERROR_MESSAGES,
  isBapError,
  type JoinSecret,
  parseJoinSecret,
  type TeamMember,
} from "../protocol/index.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";

/** The largest `--secret-file` `team join` reads, in bytes (4 KiB). */
export const MAX_SECRET_FILE_BYTES = 4096;

/** What {@link runTeamCommand} needs besides argv and io (tests inject the folder). */
export interface TeamCommandOptions {
  /** The folder the command acts for (the checkout is found from it). */
  readonly cwd: string;
}

const USAGE = [
  "usage: brigade team <subcommand>",
  "  create <team-name> [--server <url>] [--secret-file <path>] [--human-label <text>]",
  "         [--operator-key-file <path>]   (a server whose registration is closed)",
  "  join --secret-file <path> [--server <url>] [--human-label <text>]",
  "  leave",
  "  members [--json]",
  "  rotate-secret [--secret-file <path>]   (creator) replace the join secret; the old one stops working",
  "  remove <member>                        (creator) revoke a member for good: its sessions close, no rejoin",
  "  transfer <member>                      (creator) make another member the team's creator",
  "",
  "<member> is the principal id `brigade team members` lists (labels are unverified, so they never pick one).",
  "All but members are yours to run in your own terminal, never from a Claude Code session.",
  "",
].join("\n");

const IN_SESSION_LINE =
  "this is a person's act: run it in your own terminal, not from a Claude Code session (CLAUDE_PID is set)";

// Only a plain token from a server's error details is printed; anything else could be hostile text.
const PRINTABLE_REASON = /^[a-z][a-z0-9_]{0,47}$/;

/** A failure already reported on stderr: carries the exit status. */
interface Failed {
  readonly status: number;
}

function say(io: CliIo, sub: string, line: string): void {
  io.stderr(`brigade team ${sub}: ${line}\n`);
}

function fail(io: CliIo, sub: string, status: number, line: string): Failed {
  say(io, sub, line);
  return { status };
}

/** One value-free line for an adapter failure; its exit status is the protocol's (§3.3). */
function reportAdapterError(io: CliIo, sub: string, error: unknown): number {
  if (!isBapError(error)) throw error;
  const reason = error.details?.reason;
  const shown = reason !== undefined && PRINTABLE_REASON.test(reason) ? ` (${reason})` : "";
  // The code's fixed message, never the error's own text: a server's message passes through.
  say(
    io,
    sub,
    `${error.code}${shown}: ${ERROR_MESSAGES[error.code]}${hintFor(sub, error.code, reason)}`,
  );
  return error.exitStatus;
}

function hintFor(sub: string, code: string, reason: string | undefined): string {
  if (sub === "join" && code === "unauthorized") return " — the join secret was refused";
  if (sub === "create" && code === "unauthorized") {
    return " — this server's registration is closed: pass --operator-key-file <path> holding the key its operator gave you";
  }
  if (ADMIN_SUBCOMMANDS.has(sub)) {
    if (reason === "not_creator") return " — only the team's creator may do this";
    if (code === "unauthorized") return " — you are not an active member of this team";
    if (code === "not_found") return " — no such member in this team (see brigade team members)";
    if (code === "conflict") return " — the creator cannot remove itself: transfer the team first";
  }
  if (code === "unavailable") return " — check the server address and try again";
  if (code === "conflict") return " — this machine's profile for that team is bound elsewhere";
  return "";
}

function inSession(io: CliIo): boolean {
  const pid = io.env.CLAUDE_PID;
  return pid !== undefined && pid !== "";
}

function parse(
  args: string[],
  options: Record<string, { type: "string" | "boolean" }>,
  positionals: number,
  positionalName = "team name",
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch {
    // parseArgs's own message quotes the argument; ours never does.
    throw new CliUsageError(
      'unknown option, missing value or stray argument (run "brigade team help")',
    );
  }
  if (parsed.positionals.length !== positionals) {
    throw new CliUsageError(
      positionals === 0
        ? 'this subcommand takes no argument (run "brigade team help")'
        : `expected exactly one ${positionalName} (run "brigade team help")`,
    );
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) throw new CliUsageError("an option is given more than once");
    values[name] = value;
  }
  return { values, positionals: parsed.positionals };
}

function stringOption(values: Record<string, unknown>, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new CliUsageError(`--${name} needs a non-empty value`);
  }
  return value;
}

function serverOption(values: Record<string, unknown>): string | undefined {
  const text = stringOption(values, "server");
  if (text === undefined) return undefined;
  const server = normalizeServerUrl(text);
  if (server === undefined) {
    throw new CliUsageError("--server must be an http(s) URL without user, query or fragment");
  }
  return server;
}

/** `BRIGADE_SERVER`, outside a session only (an inherited `BRIGADE_*` is ignored inside one). */
function envServer(io: CliIo): string | undefined {
  if (inSession(io)) return undefined;
  const text = io.env.BRIGADE_SERVER;
  if (text === undefined || text === "") return undefined;
  const server = normalizeServerUrl(text);
  if (server === undefined) throw new CliUsageError("BRIGADE_SERVER is not an http(s) URL");
  return server;
}

function configDirOf(io: CliIo, sub: string): string | Failed {
  const dir = harnessConfigDir(io.env);
  if (dir !== undefined) return dir;
  return fail(
    io,
    sub,
    11,
    "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path",
  );
}

const BINDING_PROBLEM: Readonly<Record<string, string>> = {
  binding_invalid:
    "this checkout's .brigade.json is not a valid team binding; fix or remove it first",
  binding_unreadable:
    "this checkout's .brigade.json cannot be read (a symlink or not a regular file); replace it first",
};

/** Refuses a create/join where a broken `.brigade.json` stands (it is never silently ignored). */
function bindingProblem(io: CliIo, sub: string, found: TeamBindingLookup): Failed | undefined {
  if (found.ok || found.reason === "no_binding") return undefined;
  return fail(
    io,
    sub,
    2,
    BINDING_PROBLEM[found.reason] ?? "this checkout's .brigade.json is unusable",
  );
}

const displayName = (name: string): string => oneLine(sanitizeName(name), 64);

// ---------------------------------------------------------------------------------------------
// Secret files
// ---------------------------------------------------------------------------------------------

/** Before any network call: the secret file must be new, in an existing writable folder. */
function checkNewSecretFile(path: string): void {
  let exists = true;
  try {
    lstatSync(path);
  } catch {
    exists = false;
  }
  let folderOk = false;
  try {
    folderOk = statSync(dirname(path)).isDirectory();
    accessSync(dirname(path), constants.W_OK);
  } catch {
    folderOk = false;
  }
  if (exists || !folderOk) {
    throw new CliUsageError("--secret-file must name a new file in an existing, writable folder");
  }
}

/**
 * Creates `path` for writing with `mode` from the first moment, never replacing a file and never
 * through a symlink (`O_EXCL | O_NOFOLLOW`); `undefined` when it cannot be created.
 */
function createNewFile(path: string, mode: number): number | undefined {
  try {
    return openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
  } catch {
    return undefined;
  }
}

/** Writes all of `text` as UTF-8 at the descriptor's position (a short write continues). */
function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/**
 * Creates the secret file exclusively, mode 0600 from the first moment; `false` on any failure.
 * Two lines: the join secret, then `server <url>` — the server travels with the secret, through
 * the same private channel, so `team join` never takes it from a repository's file alone.
 */
function writeSecretFile(path: string, secret: string, server: string): boolean {
  const fd = createNewFile(path, 0o600);
  if (fd === undefined) return false;
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) throw new Error("secret file not private");
    writeAllSync(fd, `${secret}\nserver ${server}\n`);
    closeSync(fd);
    return true;
  } catch {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // nothing more to undo
    }
    return false;
  }
}

type SecretRead =
  | { readonly ok: true; readonly secret: JoinSecret; readonly server: string | undefined }
  | Failed;

const SERVER_LINE = /^server\s+(\S+)$/;

/**
 * Reads a join secret from a file: ≤ 4 KiB, UTF-8; its first non-blank line is the secret and an
 * optional second one `server <url>` names the team's server (what `team create --secret-file`
 * writes); surrounding whitespace is ignored, anything more is refused.
 */
function readSecretFile(io: CliIo, path: string): SecretRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return fail(io, "join", 2, "cannot open the --secret-file");
  }
  let bytes: Uint8Array;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return fail(io, "join", 2, "the --secret-file is not a regular file");
    const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_SECRET_FILE_BYTES) {
      return fail(io, "join", 2, "the --secret-file is larger than 4 KiB: it is not a join secret");
    }
    bytes = buffer.subarray(0, length);
  } catch {
    return fail(io, "join", 2, "cannot read the --secret-file");
  } finally {
    closeSync(fd);
  }
  const lines = (decodeUtf8Strict(bytes) ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const parsed = lines.length === 0 ? undefined : parseJoinSecret(lines[0] as string);
  const serverText = lines.length === 2 ? SERVER_LINE.exec(lines[1] as string)?.[1] : undefined;
  const server = serverText === undefined ? undefined : normalizeServerUrl(serverText);
  if (
    parsed === undefined ||
    !parsed.ok ||
    lines.length > 2 ||
    (lines.length === 2 && server === undefined)
  ) {
    return fail(
      io,
      "join",
      3,
      "the --secret-file does not hold a join secret (brg1.<team>.<secret>, then an optional line server <url>)",
    );
  }
  return { ok: true, secret: parsed.value, server };
}

// ---------------------------------------------------------------------------------------------
// Subcommands
// ---------------------------------------------------------------------------------------------

async function create(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      server: { type: "string" },
      "secret-file": { type: "string" },
      "human-label": { type: "string" },
      "operator-key-file": { type: "string" },
    },
    1,
  );
  const teamName = positionals[0] as string;
  const label = stringOption(values, "human-label");
  const secretOption = stringOption(values, "secret-file");
  const operatorKeyOption = stringOption(values, "operator-key-file");
  const configDir = configDirOf(io, "create");
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
  const secretPath = secretOption === undefined ? undefined : resolve(cwd, secretOption);
  if (secretPath !== undefined) checkNewSecretFile(secretPath);
  const bindingDir = location.repositoryTop ?? location.start;

  // The profile is named after the team (teamKeyFor), known only once the server created it:
  // create on a fresh temporary profile, then rename it without ever replacing a file.
  const pending = new ProfileStore(configDir, `pending-${randomBytes(6).toString("hex")}`);
  const discardPending = (): void => {
    for (const path of [pending.credentialPath, pending.profilePath]) {
      try {
        unlinkSync(path);
      } catch {
        // absent already
      }
    }
  };
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
    discardPending();
    if (error instanceof PrivateFileError) {
      return fail(io, "create", 11, "the configuration folder cannot be written privately").status;
    }
    return reportAdapterError(io, "create", error);
  }

  // The secret first: whatever fails next, the only copy of it must reach the person.
  const secretInFile =
    secretPath !== undefined && writeSecretFile(secretPath, result.join_secret, server);
  if (!secretInFile) {
    if (secretPath !== undefined) say(io, "create", "could not write the --secret-file");
    say(
      io,
      "create",
      "the join secret is shown once, below on stdout: keep it private (anyone holding it can join the team)",
    );
    io.stdout(`Join secret (shown once): ${result.join_secret}\n`);
  }

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
  if (!writeBindingFile(bindingPath, serializeTeamBinding(binding))) {
    return fail(
      io,
      "create",
      1,
      "the team was created, but .brigade.json could not be written (it may have appeared meanwhile)",
    ).status;
  }
  try {
    writeConsent(
      configDir,
      consentRecord({
        checkout: bindingDir,
        server,
        teamRef: result.team_ref,
        teamName: result.team_name,
      }),
    );
  } catch {
    return fail(io, "create", 11, "the consent record could not be written privately").status;
  }
  io.stdout(
    [
      `Created team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}) on ${server}; this checkout is joined.`,
      `Wrote ${TEAM_BINDING_FILE_NAME} at ${location.repositoryTop === undefined ? "this folder (no repository found)" : "the repository top"}.`,
      secretInFile
        ? "The join secret is in the --secret-file (mode 0600); it was not printed."
        : "",
      "Next steps:",
      `  1. Commit ${TEAM_BINDING_FILE_NAME} so your teammates' checkouts name the team.`,
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

/** Writes the committed `.brigade.json` (mode 0644: it is meant to be shared), never replacing one. */
function writeBindingFile(path: string, text: string): boolean {
  const fd = createNewFile(path, 0o644);
  if (fd === undefined) return false;
  try {
    writeAllSync(fd, text);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

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

async function join_(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parse(
    argv,
    {
      server: { type: "string" },
      "secret-file": { type: "string" },
      "human-label": { type: "string" },
    },
    0,
  );
  const secretOption = stringOption(values, "secret-file");
  if (secretOption === undefined) {
    throw new CliUsageError(
      "--secret-file <path> is required (a secret is never taken from the command line)",
    );
  }
  const label = stringOption(values, "human-label");
  const serverFlag = serverOption(values);
  const configDir = configDirOf(io, "join");
  if (typeof configDir !== "string") return configDir.status;
  const read = readSecretFile(io, resolve(cwd, secretOption));
  if (!("ok" in read)) return read.status;
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
      writeConsent(
        configDir,
        consentRecord({
          checkout: found.checkout,
          server,
          teamRef: result.team_ref,
          teamName: result.team_name,
        }),
      );
    } catch {
      return fail(io, "join", 11, "joined, but the consent record could not be written privately")
        .status;
    }
    lines.push("Claude Code sessions started in this checkout now connect to the team.");
  } else {
    lines.push(
      `No ${TEAM_BINDING_FILE_NAME} binds this folder to the team, so no session connects yet: run this command again inside a checkout whose ${TEAM_BINDING_FILE_NAME} names it.`,
    );
  }
  lines.push("You may delete the secret file now.", "");
  io.stdout(lines.join("\n"));
  return 0;
}

async function leave(argv: string[], io: CliIo, cwd: string): Promise<number> {
  parse(argv, {}, 0);
  const configDir = configDirOf(io, "leave");
  if (typeof configDir !== "string") return configDir.status;
  const location = locateCheckout(cwd);
  if (location === undefined)
    return fail(io, "leave", 2, "the current folder does not exist").status;
  const found = findTeamBinding(cwd);
  const checkout = found.ok ? found.checkout : (location.repositoryTop ?? location.start);
  const consent = readConsent(configDir, checkout);
  // What the person joined here decides; the repository's file only when no consent remains.
  const teamKey = consent.ok
    ? consent.record.team_key
    : found.ok
      ? teamKeyFor(found.binding.server, found.binding.team_ref)
      : undefined;
  if (teamKey === undefined) {
    return fail(
      io,
      "leave",
      11,
      "this checkout names no team and holds no consent: nothing to leave",
    ).status;
  }
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamLeave"]>>;
  try {
    result = await openHarnessAdapter({ configDir, teamKey }).teamLeave();
  } catch (error) {
    return reportAdapterError(io, "leave", error);
  }
  try {
    deleteConsent(configDir, checkout);
  } catch {
    return fail(io, "leave", 11, "left the team, but the consent record could not be deleted")
      .status;
  }
  io.stdout(
    `Left team ${sanitizeAttribute(result.team_ref)}; this checkout's consent is removed and its sessions no longer connect.\n`,
  );
  return 0;
}

const SESSION_TEAM_LINES: Readonly<Record<string, string>> = {
  no_binding: "no .brigade.json names a team for this folder",
  binding_invalid: "this checkout's .brigade.json is not a valid team binding",
  binding_unreadable: "this checkout's .brigade.json cannot be read",
  no_consent:
    "you have not joined this checkout's team: run `brigade team join --secret-file <path>` here",
  consent_mismatch:
    "this checkout's .brigade.json names another server or team than the one you joined here",
  no_config_dir: "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path",
};

function memberJson(m: TeamMember): Record<string, unknown> {
  return {
    principal_ref: sanitizeAttribute(m.principal_ref),
    human_label: oneLine(sanitizeLabel(m.human_label), 128),
    status: sanitizeAttribute(m.status),
    joined_at: sanitizeAttribute(m.joined_at),
    last_seen_at: m.last_seen_at === null ? null : sanitizeAttribute(m.last_seen_at),
    session_count: m.session_count,
  };
}

async function members(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } }, 0);
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok)
    return fail(io, "members", 11, SESSION_TEAM_LINES[team.reason] ?? team.reason).status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamMembers"]>>;
  try {
    result = await openHarnessAdapter({
      configDir: team.configDir,
      teamKey: team.teamKey,
    }).teamMembers();
  } catch (error) {
    return reportAdapterError(io, "members", error);
  }
  const list = result.members.map(memberJson);
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({
        team_ref: sanitizeAttribute(result.team_ref),
        team_name: displayName(result.team_name),
        labels_verified: false,
        members: list,
      })}\n`,
    );
    return 0;
  }
  const lines = [
    `Team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}): ${list.length} active member${list.length === 1 ? "" : "s"}. Labels are chosen by each member and unverified.`,
  ];
  for (const m of list) {
    const label = m.human_label === "" ? "(no label)" : m.human_label;
    const seen = m.last_seen_at === null ? "never" : m.last_seen_at;
    lines.push(
      `  ${m.principal_ref}  ${label}  joined ${m.joined_at}  last seen ${seen}  sessions ${m.session_count}`,
    );
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Creator-only subcommands (team.admin)
// ---------------------------------------------------------------------------------------------

const ADMIN_SUBCOMMANDS: ReadonlySet<string> = new Set(["rotate-secret", "remove", "transfer"]);

/** The longest `<member>` argument taken (server-issued ids are far shorter). */
const MAX_MEMBER_ARGUMENT = 256;

/** The team of the folder for an admin subcommand, or the exit status already reported. */
function adminTeam(
  io: CliIo,
  sub: string,
  cwd: string,
): (SessionTeam & { readonly ok: true }) | Failed {
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok) return fail(io, sub, 11, SESSION_TEAM_LINES[team.reason] ?? team.reason);
  return team;
}

/**
 * The principal a `<member>` argument names: the roster entry whose id, or whose id as
 * `team members` prints it, equals the argument; otherwise the argument itself (a member who left
 * is off the roster and can still be removed for good). Labels never select a member: anyone can
 * choose any label.
 */
function memberRef(roster: readonly TeamMember[], argument: string): string {
  const hit = roster.find(
    (m) => m.principal_ref === argument || sanitizeAttribute(m.principal_ref) === argument,
  );
  return hit?.principal_ref ?? argument;
}

function memberArgument(positionals: string[]): string {
  const argument = positionals[0] as string;
  if (
    argument === "" ||
    argument.length > MAX_MEMBER_ARGUMENT ||
    /[\p{Cc}\p{Cf}]/u.test(argument)
  ) {
    throw new CliUsageError("<member> must be a principal id as brigade team members lists it");
  }
  return argument;
}

async function rotateSecret(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parse(argv, { "secret-file": { type: "string" } }, 0);
  const secretOption = stringOption(values, "secret-file");
  const secretPath = secretOption === undefined ? undefined : resolve(cwd, secretOption);
  if (secretPath !== undefined) checkNewSecretFile(secretPath);
  const team = adminTeam(io, "rotate-secret", cwd);
  if (!("ok" in team)) return team.status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamRotateSecret"]>>;
  try {
    result = await openHarnessAdapter(team).teamRotateSecret();
  } catch (error) {
    return reportAdapterError(io, "rotate-secret", error);
  }
  // The old secret no longer works: the new one must reach the person whatever happens next.
  const secretInFile =
    secretPath !== undefined && writeSecretFile(secretPath, result.join_secret, team.server);
  if (!secretInFile) {
    if (secretPath !== undefined) say(io, "rotate-secret", "could not write the --secret-file");
    say(
      io,
      "rotate-secret",
      "the new join secret is shown once, below on stdout: keep it private (anyone holding it can join the team)",
    );
    io.stdout(`Join secret (shown once): ${result.join_secret}\n`);
  }
  io.stdout(
    [
      `Rotated the join secret of team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}): the old secret no longer admits anyone; members stay members.`,
      secretInFile
        ? "The new join secret is in the --secret-file (mode 0600); it was not printed."
        : "",
      "Give the new secret privately to anyone who still needs to join.",
      "",
    ]
      .filter((line, i, all) => line !== "" || i === all.length - 1)
      .join("\n"),
  );
  return 0;
}

async function remove(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { positionals } = parse(argv, {}, 1, "member");
  const argument = memberArgument(positionals);
  const team = adminTeam(io, "remove", cwd);
  if (!("ok" in team)) return team.status;
  const adapter = openHarnessAdapter(team);
  let result: Awaited<ReturnType<typeof adapter.teamRevokeMember>>;
  try {
    const roster = (await adapter.teamMembers()).members;
    result = await adapter.teamRevokeMember({ principal_ref: memberRef(roster, argument) });
  } catch (error) {
    return reportAdapterError(io, "remove", error);
  }
  io.stdout(
    `Removed ${sanitizeAttribute(result.principal_ref)} from team ${sanitizeAttribute(result.team_ref)} for good: its sessions there are closed, its credential no longer works in the team and no join secret lets it back. Messages it already sent stay delivered.\n`,
  );
  return 0;
}

async function transfer(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { positionals } = parse(argv, {}, 1, "member");
  const argument = memberArgument(positionals);
  const team = adminTeam(io, "transfer", cwd);
  if (!("ok" in team)) return team.status;
  const adapter = openHarnessAdapter(team);
  let result: Awaited<ReturnType<typeof adapter.teamTransfer>>;
  try {
    const roster = (await adapter.teamMembers()).members;
    result = await adapter.teamTransfer({ principal_ref: memberRef(roster, argument) });
  } catch (error) {
    return reportAdapterError(io, "transfer", error);
  }
  io.stdout(
    `Team ${sanitizeAttribute(result.team_ref)} now belongs to ${sanitizeAttribute(result.creator_principal_ref)}; you stay a member, without the creator's rights.\n`,
  );
  return 0;
}

// ---------------------------------------------------------------------------------------------

const SUBCOMMANDS: Readonly<
  Record<
    string,
    {
      readonly human: boolean;
      readonly run: (argv: string[], io: CliIo, cwd: string) => Promise<number>;
    }
  >
> = {
  create: { human: true, run: create },
  join: { human: true, run: join_ },
  leave: { human: true, run: leave },
  members: { human: false, run: members },
  "rotate-secret": { human: true, run: rotateSecret },
  remove: { human: true, run: remove },
  transfer: { human: true, run: transfer },
};

/**
 * `brigade team create|join|leave|members|rotate-secret|remove|transfer` for the folder
 * `options.cwd` (docs/44-team-binding.md). Exit statuses: 0 success; 2 bad usage
 * (`CliUsageError`, one value-free line) or a local refusal — every subcommand but `members`
 * while `CLAUDE_PID` is set (nothing touched), a
 * `.brigade.json` that already names a team (`create`) or another team than the secret
 * (`join`); 3 a `--secret-file` without a join secret; 11 no configuration folder, no team for
 * the folder (`members`, `leave`, the creator-only three) or a private file that cannot be
 * written; an adapter failure exits with its code's protocol status (1..12, one line naming the
 * code; `unauthorized` 5 when the caller is not the creator). The join secret is read only from a
 * file and printed only by `create` and `rotate-secret` without `--secret-file`.
 *
 * @example await runTeamCommand(["members", "--json"], io, { cwd: "/home/dana/src/api" });
 */
export async function runTeamCommand(
  argv: string[],
  io: CliIo,
  options: TeamCommandOptions,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (sub === undefined) throw new CliUsageError('unknown subcommand (run "brigade team help")');
  if (sub.human && inSession(io)) return fail(io, name, 2, IN_SESSION_LINE).status;
  return sub.run(rest, io, options.cwd);
}

/**
 * `brigade team …` in the process's working folder: see {@link runTeamCommand}.
 *
 * @example const status = await runTeam(["join", "--secret-file", "team.secret"], processIo());
 */
export const runTeam: CommandRunner = (argv, io) =>
  runTeamCommand(argv, io, { cwd: process.cwd() });
