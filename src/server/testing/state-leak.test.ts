import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../../test/support/session-registration.ts";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

const idle = { activity: "idle" } as const;

/** What C-51 and C-52 observe of sender isolation, through the service alone. */
async function isolation(factory?: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const service = (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, systemDeps());
  const [a, b] = await Promise.all(
    [0, 1].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined) throw new Error("principals");
  const team = await service.createTeam(a, { team_name: "ops" });
  const T = team.team_ref;
  await service.joinTeam(b, { join_secret: team.join_secret });
  const sa = (await service.registerSession(a, T, sessionRegistration("a", idle))).session_id;
  const sb = (await service.registerSession(b, T, sessionRegistration("b", idle))).session_id;
  const sent = await service.sendMessage(a, T, {
    sender_session_id: sa,
    recipient_session_id: sb,
    body: "hi",
  });
  const recipientReads =
    (await service.messageState(b, T, sb, { message_ids: [sent.message_id] })).messages.length > 0;
  await service.closeSession(b, T, sb);
  const sa2 = (await service.registerSession(a, T, sessionRegistration("a2", idle))).session_id;
  const strangerAdopts =
    (await service.adoptMessages(a, T, sa2, { from_session_ids: [sb] })).messages.length > 0;
  const senderReads =
    (await service.messageState(a, T, sa, { message_ids: [sent.message_id] })).messages.length > 0;
  return { recipientReads, strangerAdopts, senderReads };
}

describe("mutant state_leak", () => {
  test("the real service: only the sender reads, only the owner adopts", async () => {
    expect(await isolation()).toEqual({
      recipientReads: false,
      strangerAdopts: false,
      senderReads: true,
    });
  });

  test("the mutant: anyone reads a state, anyone adopts an ended session", async () => {
    expect(await isolation(mutantServiceFactory("state_leak"))).toEqual({
      recipientReads: true,
      strangerAdopts: true,
      senderReads: true,
    });
  });
});
