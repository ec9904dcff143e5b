// The suite of test/real-claude-drop.suite.ts on the newest Claude Code (docs/47-real-client-tests.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { admissionDropSuite } from "./real-claude-drop.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import {
  latestClaudeCodeVersion,
  PINNED_CLAUDE_CODE_VERSION,
} from "./support/real-claude/index.ts";

await onNewest(
  "Claude Code",
  PINNED_CLAUDE_CODE_VERSION,
  latestClaudeCodeVersion,
  "test/real-claude-drop-pinned.test.ts",
  (choice) => admissionDropSuite(choice),
);
