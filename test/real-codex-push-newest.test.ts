// The suite of test/real-codex-push.suite.ts on the registry's newest Codex (docs/49-codex.md "The push lane").
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { codexPushSuite } from "./real-codex-push.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import { latestCodexVersion, PINNED_CODEX_VERSION } from "./support/real-codex/codex-executable.ts";

await onNewest(
  "Codex",
  PINNED_CODEX_VERSION,
  latestCodexVersion,
  "test/real-codex-push-pinned.test.ts",
  (choice) => codexPushSuite(choice),
);
