import { type ConformanceCase, defineCase } from "../case.ts";
import type { Principal } from "../context.ts";
import { adminTeam, expectNotCreator, rotate } from "./fresh-team.ts";
import { detail, principalRef, sleep } from "./helpers.ts";

/**
 * The transfer-offer case **[ours]** (docs/20-protocol.md, "Team lifecycle"): a `team transfer`
 * offer stands 7 days unless the creator asks for less (`--expires-in`), and one past its time
 * hands nothing over. Id C-95.
 */
const WEEK_MS = 7 * 24 * 3600 * 1000;

const C95 = defineCase(
  "C-95",
  "[ours] a team transfer offer stands 7 days by default (expires_at in the result); one made with --expires-in 1 and accepted 2.5 s later → 5 transfer_offer_expired, cleared (then 6), the team stays the creator's; --expires-in outside 1..604800 → 3",
  ["team.admin", "team.create", "team.join"],
  async (ctx) => {
    const { creator, joined } = await adminTeam(ctx, "C95", 1);
    const [heir] = joined;
    if (heir === undefined) return ctx.fail("no C-95 team");
    const heirRef = await principalRef(ctx, heir);
    const offer = (args: readonly string[]) =>
      ctx.call(creator, ["team", "transfer", "--principal", heirRef, ...args]);
    const accept = (by: Principal) => ctx.call(by, ["team", "accept-transfer"]);

    const before = Date.now();
    const standing = ctx.ok(await offer([]), "transfer");
    const expires = Date.parse(String(standing.expires_at));
    ctx.check(
      Math.abs(expires - (before + WEEK_MS)) < 10 * 60_000,
      "transfer: the offer does not expire 7 days after it was made",
    );
    for (const bad of ["0", "604801"]) {
      const refused = await offer(["--expires-in", bad]);
      if (ctx.expectError(refused, "invalid_input", 3, `transfer --expires-in ${bad}`)) {
        ctx.check(
          detail(refused, "field") === "expires_in_seconds",
          `transfer --expires-in ${bad}: field is not expires_in_seconds`,
        );
      }
    }

    const short = ctx.ok(await offer(["--expires-in", "1"]), "transfer --expires-in 1");
    ctx.check(
      short.offered_to_principal_ref === heirRef && typeof short.expires_at === "string",
      "transfer --expires-in 1: the result does not name the member and an end",
    );
    await sleep(2_500);
    const lapsed = await accept(heir);
    if (ctx.expectError(lapsed, "unauthorized", 5, "accept-transfer of an expired offer")) {
      ctx.check(
        detail(lapsed, "reason") === "transfer_offer_expired",
        "accept-transfer of an expired offer: reason is not transfer_offer_expired",
      );
    }
    ctx.expectError(await accept(heir), "not_found", 6, "accept-transfer after the refusal");
    expectNotCreator(ctx, await rotate(ctx, heir, "C-95 heir"), "rotate-secret by the heir");
    ctx.ok(await rotate(ctx, creator, "C-95 creator"), "rotate-secret by the creator");
    // Offered again, the member can take it.
    ctx.ok(await offer([]), "a new transfer");
    ctx.ok(await accept(heir), "accept-transfer of the new offer");
  },
);

/** The transfer-offer case **[ours]**. */
export const TRANSFER_OFFER_CASES: readonly ConformanceCase[] = [C95];
