// The entry of the Claude Code plugin's single-file bundle (plugin/dist/brigade.mjs, written by
// scripts/build-plugin-bundle.mjs): only HARNESS_COMMANDS, so the bundle holds no native module and
// no server code, and runs with plain `node` and no node_modules.
import { exitAfterFlush, processIo } from "./cli-io.ts";
import { dispatchCommand } from "./command-table.ts";
import { HARNESS_COMMANDS } from "./harness-commands.ts";

await exitAfterFlush(await dispatchCommand(HARNESS_COMMANDS, process.argv.slice(2), processIo()));
