// The suite of test/real-codex-pull.suite.ts on the registry's newest Codex (docs/49-codex.md).

import { codexPullSuite } from "./real-codex-pull.suite.ts";
import { CODEX_CHOICES } from "./support/real-codex/codex-executable.ts";

codexPullSuite(CODEX_CHOICES.newest);
