export { firstCodePoints, indexAfterCodePoints } from "./code-points.ts";
export { GO_SPACE, goCollapseSpace, goTrimSpace, isGoSpace } from "./go-space.ts";
export { isWellFormedUtf8, repairUtf8, utf8ByteLength } from "./utf8.ts";
export { isWellFormed, toWellFormed } from "./well-formed.ts";
