// The suite of test/real-codex-push.suite.ts on the pinned Codex (docs/49-codex.md "The push lane").

import { codexPushSuite } from "./real-codex-push.suite.ts";
import { CODEX_CHOICES } from "./support/real-codex/codex-executable.ts";

codexPushSuite(CODEX_CHOICES.pinned);
