// The suite of test/real-claude-states.suite.ts on the pinned Claude Code (docs/47-real-client-tests.md).

import { messageStatesSuite } from "./real-claude-states.suite.ts";
import { CLAUDE_CODE_CHOICES } from "./support/real-claude/index.ts";

messageStatesSuite(CLAUDE_CODE_CHOICES.pinned);
