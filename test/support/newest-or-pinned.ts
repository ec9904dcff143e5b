import { test } from "vitest";

/** A client version a real-client suite runs on: which one, and how to resolve it. */
export interface VersionChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

/**
 * The newest version's real-client file (docs/47-real-client-tests.md, "Pinned and newest"):
 * resolves the registry's newest version while the file is collected. When it is not the pinned
 * version, `register` registers the suite on it. When it is the pinned version, the pinned file
 * already drives that very executable through the same cases, so running them a second time
 * proves nothing new and costs the suite's budget: this file registers one skipped case whose
 * title names the version and the file that runs it. The day the registry moves on, the newest
 * file runs whole again. A registry that cannot be reached fails the file at collection with the
 * reason; it is never skipped.
 *
 * @example await onNewest("Qwen Code", PINNED_QWEN_VERSION, latestQwenVersion, "test/real-qwen-live-pinned.test.ts", (choice) => qwenLiveSuite(choice));
 */
export async function onNewest(
  client: string,
  pinned: string,
  latest: () => Promise<string>,
  pinnedFile: string,
  register: (choice: VersionChoice) => void,
): Promise<void> {
  const newest = await latest();
  if (newest !== pinned) {
    register({ which: "newest", version: async () => newest });
    return;
  }
  test.skip(`the newest ${client} is the pinned ${pinned}: its cases run once, in ${pinnedFile}`, () => {});
}
