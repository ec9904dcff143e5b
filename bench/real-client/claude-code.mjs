// The recipient for bench/real-client.bench.mjs: the real interactive Claude Code under tmux with
// the plugin loaded by --plugin-dir and a loopback fake of the Messages API (its push lane is the
// plugin's watcher writing to Claude Code's inbox socket).

/**
 * Starts `person`'s Claude Code (BENCH_CLAUDE_CODE_VERSION or the real-client test's pinned one).
 * Resolves with the recipient contract of bench/real-client.bench.mjs.
 */
export async function startClaudeCode({ world, person, load }) {
  const realClaude = await load("test/support/real-claude/index.ts");
  const version = process.env.BENCH_CLAUDE_CODE_VERSION ?? realClaude.PINNED_CLAUDE_CODE_VERSION;
  const executable = await realClaude.claudeCodeExecutable(version);
  const session = await realClaude.RealClaudeSession.start(world, person, { executable });
  return {
    version,
    package: `${realClaude.CLAUDE_CODE_PACKAGE}@${version}`,
    mode: "interactive under tmux, --plugin-dir, its default permission mode, a loopback fake of the Messages API; push through the plugin's watcher into Claude Code's inbox socket",
    sessionId: session.brigadeSessionId(),
    teamKey: world.mapOf(person, { claudePid: session.claudePid }).team_key,
    mark: () => session.api.requests.length,
    arrival(tag, from) {
      return session.api.requests.slice(from).find((r) => r.conversation && r.raw.includes(tag))
        ?.at;
    },
    waitIdle: (ms) => session.waitForIdle(ms),
    screen: () => session.describe(),
    close: () => session.close(),
  };
}
