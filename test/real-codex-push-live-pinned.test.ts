// The suite of test/real-codex-push-live.suite.ts on the pinned Codex (docs/49-codex.md "The push lane").

import { codexLiveSuite } from "./real-codex-push-live.suite.ts";
import { CODEX_CHOICES } from "./support/real-codex/codex-executable.ts";

codexLiveSuite(CODEX_CHOICES.pinned);
