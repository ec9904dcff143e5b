// The suite of test/real-claude-code.suite.ts on the newest Claude Code (docs/47-real-client-tests.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { claudeCodeSuite } from "./real-claude-code.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import {
  latestClaudeCodeVersion,
  PINNED_CLAUDE_CODE_VERSION,
} from "./support/real-claude/index.ts";

await onNewest(
  "Claude Code",
  PINNED_CLAUDE_CODE_VERSION,
  latestClaudeCodeVersion,
  "test/real-claude-code-pinned.test.ts",
  (choice) => claudeCodeSuite(choice),
);
