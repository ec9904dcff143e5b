// The suite of test/real-codex-pull.suite.ts on the registry's newest Codex (docs/49-codex.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { codexPullSuite } from "./real-codex-pull.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import { latestCodexVersion, PINNED_CODEX_VERSION } from "./support/real-codex/codex-executable.ts";

await onNewest(
  "Codex",
  PINNED_CODEX_VERSION,
  latestCodexVersion,
  "test/real-codex-pull-pinned.test.ts",
  (choice) => codexPullSuite(choice),
);
