import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { registerStoreContract } from "../../service/store-contract.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-sqlite-"));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

registerStoreContract("sqlite (memory)", () => openSqliteStore(":memory:"));
registerStoreContract("sqlite (file)", () => {
  counter += 1;
  return openSqliteStore(join(dir, `contract-${counter}.db`));
});
// The service's unit-of-work path (sendInTx and the others), which a store without its own
// coarse operations takes, held to the same answers on the same store.
registerStoreContract("sqlite (file, units only)", () => {
  counter += 1;
  const store = openSqliteStore(join(dir, `contract-${counter}.db`));
  return { transact: (unit) => store.transact(unit), close: () => store.close() };
});
