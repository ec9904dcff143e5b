// The suite of test/real-claude-drop.suite.ts on the newest Claude Code (docs/47-real-client-tests.md).

import { admissionDropSuite } from "./real-claude-drop.suite.ts";
import { CLAUDE_CODE_CHOICES } from "./support/real-claude/index.ts";

admissionDropSuite(CLAUDE_CODE_CHOICES.newest);
