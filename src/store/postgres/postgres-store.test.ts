import { afterAll } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { registerStoreContract } from "../../service/store-contract.ts";
import { openPostgresStore } from "./postgres-store.ts";

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

registerStoreContract("postgres", async () => {
  const schema = await freshPostgresSchema("contract");
  drops.push(schema.drop);
  return openPostgresStore(schema.url);
});
