import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  build,
  clauseFromFile,
  type Instruction,
  LEVEL_CUSTOM,
  MAX_CUSTOM_BYTES,
  POLL_PREAMBLE,
  parseLevel,
  wrap,
} from "../formats/frame/index.ts";
import { isWellFormedUtf8, repairUtf8 } from "../formats/sanitize/index.ts";
import { parseStrictJson } from "../protocol/encoding/strict-json.ts";
import { validateMessageEnvelope } from "../protocol/messages/message-envelope.ts";
import { type CliIo, CliUsageError, readAll } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

/** The most `brigade frame` reads from stdin: one BAP/1 document, 1 MiB. */
export const FRAME_MAX_INPUT_BYTES: number = 1024 * 1024;

const HELP = `usage: brigade frame --team NAME [--level open|guarded|strict | --frame-file PATH]
                     [--wrap NAME | --poll] < envelope.json

Builds the <brigade-message> frame a receiving model reads from one BAP/1 MessageEnvelope
(JSON on stdin) and prints it followed by a newline.
  --team NAME        the human team name (the envelope carries only team_ref)
  --level LEVEL      the instruction clause: open (default), guarded or strict
  --frame-file PATH  the user's own clause, read from a file (at most 4096 bytes, one paragraph)
  --wrap NAME        nest the frame in <cross-session-message from-name="NAME">
  --poll             print it as the prompt hook's poll fallback does (a preamble line first)
`;

/**
 * `brigade frame`: one MessageEnvelope on stdin (strict JSON, duplicate members refused, loose
 * BAP/1 validation) → the frame on stdout. Exit 0 on success; 2 with one value-free line on
 * stderr for a bad flag, envelope, level or frame file.
 */
export async function runFrame(argv: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  if (flags.team === undefined) throw new CliUsageError("--team is required");
  if (flags.level !== undefined && flags["frame-file"] !== undefined) {
    throw new CliUsageError("give --level or --frame-file, not both");
  }
  if (flags.wrap !== undefined && flags.poll === true) {
    throw new CliUsageError("--poll prints the frame unwrapped: drop --wrap");
  }
  const instruction = await instructionFrom(flags.level, flags["frame-file"]);
  const envelope = await readEnvelope(io);
  const frame = build(envelope, flags.team, instruction);
  if (flags.poll === true) io.stdout(`${POLL_PREAMBLE}\n${frame}\n`);
  else io.stdout(`${flags.wrap === undefined ? frame : wrap(frame, flags.wrap)}\n`);
  return 0;
}

function parseFlags(argv: string[]) {
  return parseCommandFlags("frame", argv, {
    team: { type: "string" },
    level: { type: "string" },
    "frame-file": { type: "string" },
    wrap: { type: "string" },
    poll: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
}

async function instructionFrom(
  level: string | undefined,
  frameFile: string | undefined,
): Promise<Instruction> {
  if (frameFile === undefined) {
    const parsed = parseLevel(level ?? "");
    if (!parsed.ok) throw new CliUsageError(parsed.error.message);
    return { level: parsed.level, custom: "" };
  }
  const path = resolve(frameFile);
  let bytes: Uint8Array;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a regular file");
    if (info.size > MAX_CUSTOM_BYTES)
      throw new CliUsageError("the frame file is larger than 4096 bytes");
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError("the frame file cannot be read as a regular file");
  }
  const clause = clauseFromFile(bytes);
  if (!clause.ok) throw new CliUsageError(clause.error.message);
  return { level: LEVEL_CUSTOM, custom: clause.clause };
}

async function readEnvelope(io: CliIo) {
  const bytes = await readAll(io.stdin, FRAME_MAX_INPUT_BYTES);
  if (bytes.length === 0)
    throw new CliUsageError("stdin is empty: give one MessageEnvelope as JSON");
  if (!isWellFormedUtf8(bytes)) throw new CliUsageError("stdin is not valid UTF-8");
  const json = parseStrictJson(repairUtf8(bytes));
  if (!json.ok) throw new CliUsageError(`stdin is not one JSON document (${json.reason})`);
  const envelope = validateMessageEnvelope(json.value);
  if (!envelope.ok) {
    const { field, reason } = envelope.error.details ?? {};
    const where = field === undefined ? "" : ` at ${field}`;
    throw new CliUsageError(
      `invalid MessageEnvelope${where}${reason === undefined ? "" : ` (${reason})`}`,
    );
  }
  return envelope.value;
}
