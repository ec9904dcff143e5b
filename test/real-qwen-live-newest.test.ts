// The suite of test/real-qwen-live.suite.ts on the registry's newest Qwen Code (docs/49-qwen.md "The push lane").
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { qwenLiveSuite } from "./real-qwen-live.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import { latestQwenVersion, PINNED_QWEN_VERSION } from "./support/real-qwen/qwen-executable.ts";

await onNewest(
  "Qwen Code",
  PINNED_QWEN_VERSION,
  latestQwenVersion,
  "test/real-qwen-live-pinned.test.ts",
  (choice) => qwenLiveSuite(choice),
);
