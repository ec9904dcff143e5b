/**
 * What a real client's shell tool gives a command, and whether `brigade send --as-me` is refused
 * there (docs/43-session-cli.md "Telling the person's terminal apart"): one shell command for the
 * fake model to run, and what its output says. Shared by the real-client suites that measure it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILT_CLI } from "./server-process.ts";

/**
 * A script that prints the command's parent chain, one `ancestor <pid>: <argv>` line each (argv
 * cut to 160 characters), from its caller (the shell the tool started) up to pid 1, then pid 1 itself: what the
 * ancestry walk reads. A file, so the client's checks of the command line see no substitution.
 */
const CHAIN_SCRIPT = `p=$PPID
n=0
while [ "$p" -gt 1 ] && [ "$n" -lt 40 ]; do
  printf 'ancestor %s: %s\\n' "$p" "$(tr '\\0' ' ' < /proc/$p/cmdline | cut -c1-160)"
  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
  n=$((n + 1))
done
printf 'pid 1: %s\\n' "$(tr '\\0' ' ' < /proc/1/cmdline | cut -c1-160)"
`;

/**
 * The command the fake model runs through the client's shell tool: prints `in-tty` or `in-pipe`
 * (stdin), `out-tty` or `out-pipe` (stdout), the names of the environment's variables that match
 * `shown` (`env | grep -o -e '^<pattern>'`, one a line), the parent chain (a script written to
 * `dir`), then runs `env -u <each of markers> brigade send --as-me <target> "as the person"` and
 * `as-me exit: <its status>`.
 *
 * @example asMeProbe(dir, ["GEMINI_CLI"], ["GEMINI[A-Z_]*="], "s-51d0a")
 */
export function asMeProbe(
  dir: string,
  markers: readonly string[],
  shown: readonly string[],
  target: string,
): string {
  const chain = join(dir, "as-me-chain.sh");
  writeFileSync(chain, CHAIN_SCRIPT);
  const unset = markers.map((name) => `-u ${name}`).join(" ");
  return [
    "[ -t 0 ] && echo in-tty || echo in-pipe",
    "[ -t 1 ] && echo out-tty || echo out-pipe",
    `env | grep -o ${shown.map((p) => `-e '^${p}'`).join(" ")}`,
    `sh ${chain}`,
    `env ${unset} ${process.execPath} ${BUILT_CLI} send --as-me ${target} "as the person"`,
    'echo "as-me exit: $?"',
  ].join("; ");
}

/** How many of `brigade sent --json`'s rows the person sent (`sender` "person"). */
export function sentAsPerson(sentJson: string): number {
  const doc = JSON.parse(sentJson) as { messages: { sender: string }[] };
  return doc.messages.filter((m) => m.sender === "person").length;
}
