// The suite of test/real-cline.suite.ts on the registry's newest Cline 2 (docs/49-cline.md
// "Cline 3": the 3.0.x line is another program).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { clineSuite } from "./real-cline.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import { newestClineTwo, PINNED_CLINE_VERSION } from "./support/real-cline/cline-executable.ts";

await onNewest(
  "Cline CLI 2",
  PINNED_CLINE_VERSION,
  newestClineTwo,
  "test/real-cline-pinned.test.ts",
  (choice) => clineSuite(choice),
);
