import { describe, expect, test } from "vitest";
import { type WatchedMembership, type WatchFeedTarget, WatchHub } from "../../service/index.ts";
import { type EndedMembershipReader, MembershipSweep } from "./membership-sweep.ts";

/** A target over a real {@link WatchHub}, as the service builds it. */
function hubTarget(hub: WatchHub): WatchFeedTarget {
  return {
    watchedSessions: () => hub.sessionIds(),
    deliver: (recipient, ids) => hub.publish(recipient, ids),
    revoke: (principalRef, teamRef, asOf) => hub.revoke(principalRef, teamRef, asOf),
    watchedMemberships: () => hub.memberships(),
  };
}

function watcher(hub: WatchHub, session: string, principal: string, team: string) {
  let revoked = false;
  hub.add(session, principal, team, {
    onMessages: () => {},
    onRevoked: () => {
      revoked = true;
    },
  });
  return () => revoked;
}

describe("MembershipSweep", () => {
  test("asks once per chunk for every watched membership, each once, and ends only the ended ones", async () => {
    const hub = new WatchHub();
    const asked: WatchedMembership[][] = [];
    const read: EndedMembershipReader = async (memberships) => {
      asked.push([...memberships]);
      return memberships.filter((m) => m.principalRef === "p-gone");
    };
    const gone = watcher(hub, "s-1", "p-gone", "t-1");
    const goneToo = watcher(hub, "s-2", "p-gone", "t-1");
    const stays = watcher(hub, "s-3", "p-here", "t-1");
    const ended: number[] = [];
    const sweep = new MembershipSweep(read, (count) => ended.push(count));
    sweep.attach(hubTarget(hub));
    await sweep.sweep();
    expect(asked).toEqual([
      [
        { principalRef: "p-gone", teamRef: "t-1" },
        { principalRef: "p-here", teamRef: "t-1" },
      ],
    ]);
    expect([gone(), goneToo(), stays()]).toEqual([true, true, false]);
    expect(ended).toEqual([1]);
    expect(hub.size).toBe(1);
  });

  test("a watch opened after the snapshot (a renewed membership) is not ended by it", async () => {
    const hub = new WatchHub();
    let late: (() => boolean) | undefined;
    const read: EndedMembershipReader = async (memberships) => {
      // The member left and joined again while the query ran, and opened a new watch.
      late = watcher(hub, "s-2", "p-1", "t-1");
      return [...memberships];
    };
    const old = watcher(hub, "s-1", "p-1", "t-1");
    const sweep = new MembershipSweep(read);
    sweep.attach(hubTarget(hub));
    await sweep.sweep();
    expect(old()).toBe(true);
    expect(late?.()).toBe(false);
    expect(hub.size).toBe(1);
  });

  test("a read that fails ends nothing, and the next sweep tries again", async () => {
    const hub = new WatchHub();
    let fail = true;
    const read: EndedMembershipReader = async (memberships) => {
      if (fail) throw new Error("connection refused");
      return [...memberships];
    };
    const revoked = watcher(hub, "s-1", "p-1", "t-1");
    const sweep = new MembershipSweep(read);
    sweep.attach(hubTarget(hub));
    await sweep.sweep();
    expect(revoked()).toBe(false);
    fail = false;
    await sweep.sweep();
    expect(revoked()).toBe(true);
  });
});
