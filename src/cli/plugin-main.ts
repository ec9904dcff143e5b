// The entry of the Claude Code plugin's single-file bundle (plugin/dist/brigade.mjs, written by
// scripts/build-plugin-bundle.mjs): only HARNESS_COMMANDS, so the bundle holds no native module and
// no server code, and runs with plain `node` and no node_modules.
import { setFlagsFromString } from "node:v8";
import { exitAfterFlush, processIo } from "./cli-io.ts";
import { dispatchCommand } from "./command-table.ts";
import { HARNESS_COMMANDS, PERSON_ONLY_COMMANDS } from "./harness-commands.ts";

// Node's fetch parses HTTP with a WebAssembly build of llhttp, which V8 recompiles in the background
// with its optimising tier; a process cannot exit before that compile ends (about 150 ms after a
// one-shot command's last request, measured here). The baseline compiler serves our small answers.
setFlagsFromString("--liftoff-only");

await exitAfterFlush(
  await dispatchCommand(HARNESS_COMMANDS, process.argv.slice(2), processIo(), PERSON_ONLY_COMMANDS),
);
