import { accessSync, constants as fsConstants, statSync } from "node:fs";
import { dirname } from "node:path";
import {
  type AdapterArgvOptions,
  type AdapterCommand,
  BapError,
  type ConventionResult,
  envelopeLine,
  errorEnvelope,
  internalError,
  invalidInputError,
  isBapError,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  okEnvelope,
  parseAdapterArgv,
  type TeamCreateRequest,
  type TeamInviteResult,
  type TeamJoinRequest,
  usageError,
  validateAckRequest,
  validateBlobDownloadRequest,
  validateBlobUploadRequest,
  validateHeartbeatRequest,
  validateMessageAdoptRequest,
  validateMessageReportRequest,
  validateMessageStateRequest,
  validatePersonSendRequest,
  validateSendRequest,
  validateSessionRegistration,
  validateTeamCreateRequest,
  validateTeamInviteRequest,
  validateTeamJoinRequest,
  validateTeamLabelRequest,
  validateTeamTransferTarget,
  valueOrThrow,
} from "../../protocol/index.ts";
import { type AdapterLogger, createNdjsonLogger, resolveLogLevel } from "../adapter-logger.ts";
import { PrivateFileError, writePrivateFileAtomic } from "../private-files.ts";
import { openUploadSource, writeDownload } from "./blob-files.ts";
import type { AdapterFactory, BoundAdapter, ProcessBindingIo } from "./process-binding-io.ts";
import { readStdinDocument } from "./read-stdin-document.ts";
import { runWatch } from "./run-watch.ts";

/** Options of {@link runProcessBinding}. */
export interface ProcessBindingOptions {
  /** `comp` of the diagnostics (default `adapter`). */
  readonly comp?: string;
  /** Extra convention flags, passed to `parseAdapterArgv`. */
  readonly argv?: AdapterArgvOptions;
}

const usage = (reason: Parameters<typeof usageError>[0], flag?: string): BapError =>
  new BapError(usageError(reason, flag));

/**
 * Exposes any in-process BAP/1 `Adapter` over the process boundary (docs/spec/protocol.md §1–§5)
 * and returns the exit status. `argv` is `<group> <verb> [flags]` (never through a shell). Rules:
 * - stdout gets exactly one envelope + `\n` for every outcome (NDJSON events for `message
 *   watch`), nothing else at any log level; stderr gets NDJSON diagnostics at `--log-level` /
 *   `BRIGADE_LOG_LEVEL` (default `warn`), redacted;
 * - the exit status is a function of the error code only (0, 1..12; never 126, 127, ≥ 128); an
 *   unexpected exception is `internal` (1), never a stack trace;
 * - a command that takes no input never touches stdin; a document command reads one ≤ 1 MiB
 *   document after the adapter's local checks, and is refused with `usage` `terminal` when stdin
 *   is a terminal; `--prompt` without a terminal is `usage` `prompt_requires_terminal`;
 * - `--join-secret` anywhere is `usage`; messages never echo an argument;
 * - `team create --secret-file <path>` writes the secret 0600 and omits it from stdout, as do
 *   `team rotate-secret` and `team invite` (the invitation).
 *
 * @example
 * const status = await runProcessBinding(["describe"], io, () => ({ adapter }));
 */
export async function runProcessBinding(
  argv: readonly string[],
  io: ProcessBindingIo,
  factory: AdapterFactory,
  options?: ProcessBindingOptions,
): Promise<number> {
  const parsed = parseAdapterArgv(argv, options?.argv);
  const level = resolveLogLevel(
    parsed.ok ? parsed.command.flags.logLevel : undefined,
    io.env.BRIGADE_LOG_LEVEL,
  );
  const logger = createNdjsonLogger({ write: io.stderr, level, comp: options?.comp ?? "adapter" });
  if (!parsed.ok) {
    logger.warn("usage", { reason: parsed.error.details?.reason ?? "" });
    return finish(io, new BapError(parsed.error));
  }
  const command = parsed.command;
  logger.debug("command", { command: command.name });
  try {
    const bound = factory({ profile: command.flags.profile, env: io.env, logger });
    const result = await dispatch(command, bound, io, logger);
    if (typeof result === "number") return result;
    io.stdout(envelopeLine(okEnvelope(result)));
    return 0;
  } catch (error) {
    if (isBapError(error)) {
      logger.info("command_failed", { command: command.name, code: error.code });
      return finish(io, error);
    }
    logger.error("command_crashed", {
      command: command.name,
      error: error instanceof Error ? error.name : "unknown",
    });
    return finish(io, new BapError(internalError()));
  }
}

function finish(io: ProcessBindingIo, error: BapError): number {
  io.stdout(envelopeLine(errorEnvelope(error)));
  return error.exitStatus;
}

/** Reads the stdin document of a document command (after the terminal courtesy check). */
async function readDocument(io: ProcessBindingIo): Promise<JsonValue> {
  if (io.stdinIsTerminal === true) throw usage("terminal");
  return valueOrThrow(await readStdinDocument(io.stdin));
}

async function readObjectDocument(io: ProcessBindingIo): Promise<JsonObject> {
  const value = await readDocument(io);
  if (!isJsonObject(value)) throw new BapError(invalidInputError(undefined, "invalid_value"));
  return value;
}

async function dispatch(
  command: AdapterCommand,
  bound: BoundAdapter,
  io: ProcessBindingIo,
  logger: AdapterLogger,
): Promise<object | number> {
  const { adapter } = bound;
  const flags = command.flags;
  const session = flags.session ?? "";
  const local = (): void => bound.checkLocalReady?.(command.name);
  switch (command.name) {
    case "describe":
      return adapter.describe();
    case "session register": {
      local();
      const lease = (await adapter.describe()).lease;
      const doc = valueOrThrow(validateSessionRegistration(await readDocument(io), { lease }));
      return adapter.sessionRegister(doc);
    }
    case "session heartbeat": {
      local();
      const lease = (await adapter.describe()).lease;
      const doc = valueOrThrow(validateHeartbeatRequest(await readDocument(io), { lease }));
      return adapter.sessionHeartbeat(session, doc);
    }
    case "session list":
      local();
      return adapter.sessionList({
        ...(flags.session === undefined ? {} : { session: flags.session }),
        includeOffline: flags.includeOffline === true,
      });
    case "session close":
      local();
      return adapter.sessionClose(session);
    case "message send": {
      local();
      return adapter.messageSend(valueOrThrow(validateSendRequest(await readDocument(io))));
    }
    case "message receive":
      local();
      return adapter.messageReceive(
        session,
        flags.limit === undefined ? {} : { limit: flags.limit },
      );
    case "message ack": {
      local();
      return adapter.messageAck(session, valueOrThrow(validateAckRequest(await readDocument(io))));
    }
    case "message state": {
      const state = adapter.messageState?.bind(adapter);
      if (state === undefined) throw usage("unknown_command");
      local();
      return state(session, valueOrThrow(validateMessageStateRequest(await readDocument(io))));
    }
    case "message sent": {
      const sent = adapter.messageSent?.bind(adapter);
      if (sent === undefined) throw usage("unknown_command");
      local();
      return sent(session, flags.limit === undefined ? {} : { limit: flags.limit });
    }
    case "message person-send": {
      const personSend = adapter.messagePersonSend?.bind(adapter);
      if (personSend === undefined) throw usage("unknown_command");
      local();
      return personSend(valueOrThrow(validatePersonSendRequest(await readDocument(io))));
    }
    case "message person-sent": {
      const personSent = adapter.messagePersonSent?.bind(adapter);
      if (personSent === undefined) throw usage("unknown_command");
      local();
      return personSent(flags.limit === undefined ? {} : { limit: flags.limit });
    }
    case "message report": {
      const report = adapter.messageReport?.bind(adapter);
      if (report === undefined) throw usage("unknown_command");
      local();
      return report(session, valueOrThrow(validateMessageReportRequest(await readDocument(io))));
    }
    case "message adopt": {
      const adopt = adapter.messageAdopt?.bind(adapter);
      if (adopt === undefined) throw usage("unknown_command");
      local();
      return adopt(session, valueOrThrow(validateMessageAdoptRequest(await readDocument(io))));
    }
    case "message upload": {
      const upload = adapter.messageUpload?.bind(adapter);
      if (upload === undefined) throw usage("unknown_command");
      local();
      const request = valueOrThrow(validateBlobUploadRequest(await readDocument(io)));
      return upload({ sha256: request.sha256, size: request.size }, openUploadSource(request.path));
    }
    case "message download": {
      const download = adapter.messageDownload?.bind(adapter);
      if (download === undefined) throw usage("unknown_command");
      local();
      const request = valueOrThrow(validateBlobDownloadRequest(await readDocument(io)));
      const opened = await download(request.sha256, { offset: request.offset ?? 0 });
      return writeDownload(opened, request.path);
    }
    case "message watch": {
      // No pre-check here: on the watch, stdout is NDJSON, so even a missing credential must
      // arrive as an `error` event, which the handle emits itself.
      const lease = (await adapter.describe()).lease;
      return runWatch(adapter, session, io, logger, lease);
    }
    case "team create":
      return teamCreate(command, bound, io, logger);
    case "team join":
      return teamJoin(command, bound, io);
    case "team leave":
      if (adapter.teamLeave === undefined) throw usage("unknown_command");
      local();
      return adapter.teamLeave();
    case "team members":
      if (adapter.teamMembers === undefined) throw usage("unknown_command");
      local();
      return adapter.teamMembers();
    case "team rotate-secret": {
      const rotate = adapter.teamRotateSecret?.bind(adapter);
      if (rotate === undefined) throw usage("unknown_command");
      local();
      if (flags.secretFile !== undefined) checkSecretFileTarget(flags.secretFile);
      return withSecretWritten(await rotate(), flags.secretFile, logger);
    }
    case "team revoke-member": {
      const revoke = adapter.teamRevokeMember?.bind(adapter);
      if (revoke === undefined) throw usage("unknown_command");
      local();
      return revoke({ principal_ref: flags.principal ?? "" });
    }
    case "team transfer": {
      const transfer = adapter.teamTransfer?.bind(adapter);
      if (transfer === undefined) throw usage("unknown_command");
      local();
      return transfer(
        valueOrThrow(
          validateTeamTransferTarget({
            principal_ref: flags.principal ?? "",
            ...(flags.expiresIn === undefined ? {} : { expires_in_seconds: flags.expiresIn }),
          }),
        ),
      );
    }
    case "team accept-transfer":
      if (adapter.teamAcceptTransfer === undefined) throw usage("unknown_command");
      local();
      return adapter.teamAcceptTransfer();
    case "team invite": {
      const invite = adapter.teamInvite?.bind(adapter);
      if (invite === undefined) throw usage("unknown_command");
      local();
      const request = valueOrThrow(
        validateTeamInviteRequest({
          ...(flags.uses === undefined ? {} : { max_uses: flags.uses }),
          ...(flags.expiresIn === undefined ? {} : { expires_in_seconds: flags.expiresIn }),
        }),
      );
      if (flags.secretFile !== undefined) checkSecretFileTarget(flags.secretFile);
      return withInvitationWritten(await invite(request), flags.secretFile, logger);
    }
    case "team invitations":
      if (adapter.teamInvitations === undefined) throw usage("unknown_command");
      local();
      return adapter.teamInvitations();
    case "team revoke-invite": {
      const revoke = adapter.teamRevokeInvite?.bind(adapter);
      if (revoke === undefined) throw usage("unknown_command");
      local();
      return revoke({ invitation_id: flags.invitation ?? "" });
    }
    case "team label": {
      const label = adapter.teamLabel?.bind(adapter);
      if (label === undefined) throw usage("unknown_command");
      local();
      return label(valueOrThrow(validateTeamLabelRequest({ human_label: flags.label ?? "" })));
    }
    case "profile rotate-token":
      if (adapter.profileRotateToken === undefined) throw usage("unknown_command");
      local();
      return adapter.profileRotateToken();
    case "profile init": {
      const init = adapter.profileInit?.bind(adapter);
      if (init === undefined) throw usage("unknown_command");
      return init(await readObjectDocument(io), { force: flags.force === true });
    }
    case "profile status":
      return noInputConvention(adapter.profileStatus?.bind(adapter));
    case "profile reset":
      return noInputConvention(adapter.profileReset?.bind(adapter));
    case "profile revoke-credentials":
      return noInputConvention(adapter.profileRevokeCredentials?.bind(adapter));
  }
}

async function noInputConvention(
  method: (() => Promise<ConventionResult>) | undefined,
): Promise<ConventionResult> {
  if (method === undefined) throw usage("unknown_command");
  return method();
}

async function ask(
  io: ProcessBindingIo,
  question: string,
  secret: boolean,
): Promise<string | undefined> {
  if (io.prompt === undefined) throw usage("prompt_requires_terminal");
  const answer = await io.prompt(question, { secret });
  return answer === "" ? undefined : answer;
}

async function teamCreate(
  command: AdapterCommand,
  bound: BoundAdapter,
  io: ProcessBindingIo,
  logger: AdapterLogger,
): Promise<object> {
  const create = bound.adapter.teamCreate?.bind(bound.adapter);
  if (create === undefined) throw usage("unknown_command");
  const flags = command.flags;
  if (flags.prompt === true && io.stdinIsTerminal !== true) throw usage("prompt_requires_terminal");
  bound.checkLocalReady?.(command.name);
  let draft: Record<string, unknown>;
  if (flags.name !== undefined) {
    draft = { team_name: flags.name };
  } else if (flags.prompt === true) {
    draft = { team_name: (await ask(io, "Team name: ", false)) ?? "" };
  } else {
    draft = { ...(await readObjectDocument(io)) };
  }
  if (flags.label !== undefined && draft.human_label === undefined) draft.human_label = flags.label;
  if (flags.prompt === true && draft.human_label === undefined) {
    const label = await ask(io, "Your label (optional): ", false);
    if (label !== undefined) draft.human_label = label;
  }
  const request: TeamCreateRequest = valueOrThrow(validateTeamCreateRequest(draft));
  const secretFile = flags.secretFile;
  if (secretFile !== undefined) checkSecretFileTarget(secretFile);
  return withSecretWritten(await create(request), secretFile, logger);
}

/**
 * The stdout result of a verb that returns a join secret (`team create`, `team rotate-secret`):
 * with `--secret-file` the secret goes to that file (0600, atomic) and leaves the result; when the
 * write fails, or without the flag, the secret stays in the result and stderr warns it is shown
 * once (the secret exists nowhere else, so losing it would be worse).
 */
function withSecretWritten<T extends { join_secret: string }>(
  result: T,
  secretFile: string | undefined,
  logger: AdapterLogger,
): object {
  if (secretFile !== undefined) {
    try {
      writePrivateFileAtomic(secretFile, `${result.join_secret}\n`);
      const { join_secret: _omitted, ...rest } = result;
      logger.info("join_secret_written");
      return rest;
    } catch (error) {
      logger.error("secret_file_write_failed", {
        reason: error instanceof PrivateFileError ? error.code : "io_error",
      });
    }
  }
  logger.warn("join_secret_shown_once");
  return result;
}

/**
 * The stdout result of `team invite`: with `--secret-file` the invitation goes to that file (0600,
 * atomic) and leaves the result; when the write fails, or without the flag, it stays in the result
 * and stderr warns it is shown once, as {@link withSecretWritten} does for a join secret.
 */
function withInvitationWritten(
  result: TeamInviteResult,
  secretFile: string | undefined,
  logger: AdapterLogger,
): object {
  const { invitation, ...rest } = result;
  if (secretFile !== undefined && invitation !== undefined) {
    try {
      writePrivateFileAtomic(secretFile, `${invitation}\n`);
      logger.info("invitation_written");
      return rest;
    } catch (error) {
      logger.error("secret_file_write_failed", {
        reason: error instanceof PrivateFileError ? error.code : "io_error",
      });
    }
  }
  logger.warn("invitation_shown_once");
  return result;
}

/** `--secret-file` must name a file in an existing, writable folder (checked before creating). */
function checkSecretFileTarget(path: string): void {
  try {
    accessSync(dirname(path), fsConstants.W_OK);
    const info = statSync(path, { throwIfNoEntry: false });
    if (info !== undefined && !info.isFile()) throw new Error("not a file");
  } catch {
    throw usage("invalid_value", "--secret-file");
  }
}

async function teamJoin(
  command: AdapterCommand,
  bound: BoundAdapter,
  io: ProcessBindingIo,
): Promise<object> {
  const join = bound.adapter.teamJoin?.bind(bound.adapter);
  if (join === undefined) throw usage("unknown_command");
  const flags = command.flags;
  if (flags.prompt === true && io.stdinIsTerminal !== true) throw usage("prompt_requires_terminal");
  bound.checkLocalReady?.(command.name);
  let draft: Record<string, unknown>;
  if (flags.prompt === true) {
    draft = { join_secret: (await ask(io, "Join secret: ", true)) ?? "" };
    if (flags.label === undefined) {
      const label = await ask(io, "Your label (optional): ", false);
      if (label !== undefined) draft.human_label = label;
    }
  } else {
    draft = { ...(await readObjectDocument(io)) };
  }
  if (flags.label !== undefined && draft.human_label === undefined) draft.human_label = flags.label;
  const parsed = valueOrThrow(validateTeamJoinRequest(draft));
  const request: TeamJoinRequest = { join_secret: parsed.join_secret };
  if (parsed.human_label !== undefined) request.human_label = parsed.human_label;
  if (parsed.backend !== undefined) request.backend = parsed.backend;
  return join(request);
}
