// The suite of test/real-gemini.suite.ts on the registry's newest Gemini CLI (docs/49-hosts.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { geminiSuite } from "./real-gemini.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import {
  latestGeminiVersion,
  PINNED_GEMINI_VERSION,
} from "./support/real-gemini/gemini-executable.ts";

await onNewest(
  "Gemini CLI",
  PINNED_GEMINI_VERSION,
  latestGeminiVersion,
  "test/real-gemini-pinned.test.ts",
  (choice) => geminiSuite(choice),
);
