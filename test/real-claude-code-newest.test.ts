// The suite of test/real-claude-code.suite.ts on the newest Claude Code (docs/47-real-client-tests.md).

import { claudeCodeSuite } from "./real-claude-code.suite.ts";
import { CLAUDE_CODE_CHOICES } from "./support/real-claude/index.ts";

claudeCodeSuite(CLAUDE_CODE_CHOICES.newest);
