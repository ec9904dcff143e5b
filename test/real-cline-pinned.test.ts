// The suite of test/real-cline.suite.ts on the pinned Cline CLI (docs/49-cline.md).

import { clineSuite } from "./real-cline.suite.ts";
import { CLINE_CHOICES } from "./support/real-cline/cline-executable.ts";

clineSuite(CLINE_CHOICES.pinned);
