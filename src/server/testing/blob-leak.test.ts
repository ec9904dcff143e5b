import { describe, expect, test } from "vitest";
import { BrigadeService } from "../../service/index.ts";
import { openSqliteStore } from "../../store/sqlite/index.ts";
import { blobLeakTx } from "./blob-leak.ts";
import { DecoratedStore } from "./decorated-store.ts";

async function* bytesOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

describe("mutant blob_leak", () => {
  test("a teammate reads a blob no message named for it; the real store refuses it", async () => {
    for (const leaky of [false, true]) {
      const inner = openSqliteStore(":memory:");
      const store = leaky ? new DecoratedStore(inner, blobLeakTx) : inner;
      const service = new BrigadeService(store);
      try {
        const a = (await service.createPrincipal()).principal_ref;
        const b = (await service.createPrincipal()).principal_ref;
        const team = await service.createTeam(a, { team_name: "t" });
        await service.joinTeam(b, { join_secret: team.join_secret });
        const bytes = new TextEncoder().encode("secret");
        const sha256 = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b";
        await service.uploadBlob(a, team.team_ref, { sha256, size: 6 }, bytesOf(bytes));
        const read = service.openBlob(b, team.team_ref, sha256);
        if (leaky) await expect(read).resolves.toMatchObject({ size: 6 });
        else await expect(read).rejects.toMatchObject({ code: "not_found" });
      } finally {
        await store.close();
      }
    }
  });
});
