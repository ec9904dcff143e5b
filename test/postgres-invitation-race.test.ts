import { describe, expect, test } from "vitest";
import { BapError } from "../src/protocol/index.ts";
import { BrigadeService } from "../src/service/index.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";

const cleanups = cleanupsAfterEach();

describe("three processes on one database, joins racing for an invitation's last uses", () => {
  test("exactly max_uses joins get in, wherever they land; the rest are refused as used", async () => {
    const schema = await freshPostgresSchema("invite_race");
    cleanups.push(schema.drop);
    // Three "processes": each its own store (its own pool of connections) and service.
    const services: BrigadeService[] = [];
    for (let i = 0; i < 3; i += 1) {
      const store = await openPostgresStore(schema.url);
      cleanups.push(() => store.close());
      services.push(new BrigadeService(store));
    }
    const [first] = services;
    if (first === undefined) throw new Error("no service");
    const creator = (await first.createPrincipal()).principal_ref;
    const team = await first.createTeam(creator, { team_name: "race" });
    for (const maxUses of [1, 3]) {
      const invite = await first.createInvitation(creator, team.team_ref, { max_uses: maxUses });
      const joiners = await Promise.all(
        Array.from({ length: 12 }, async () => (await first.createPrincipal()).principal_ref),
      );
      const outcomes = await Promise.all(
        joiners.map((p, i) =>
          (services[i % services.length] as BrigadeService)
            .joinTeam(p, { join_secret: invite.invitation })
            .then(
              () => "joined",
              (error: unknown) =>
                error instanceof BapError ? (error.details?.reason ?? error.code) : "crashed",
            ),
        ),
      );
      expect(
        outcomes.filter((o) => o === "joined"),
        `max_uses ${maxUses}`,
      ).toHaveLength(maxUses);
      expect(outcomes.filter((o) => o === "invitation_used")).toHaveLength(12 - maxUses);
      const [listed] = (await first.listInvitations(creator, team.team_ref)).invitations;
      expect(listed).toMatchObject({ invitation_id: invite.invitation_id, uses: maxUses });
    }
    expect((await first.listMembers(creator, team.team_ref)).members).toHaveLength(1 + 1 + 3);
  });
});
