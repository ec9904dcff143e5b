import { describe, expect, test } from "vitest";
import { gateClosedLastingly } from "../claude-code/index.ts";
import { harnessLiveDelivery } from "./live-delivery-report.ts";

describe("harnessLiveDelivery", () => {
  const socket = "/run/user/1000/cc/inbox.sock";

  test("no inbox socket is no_inbox_socket, whatever the gate says", () => {
    const noSocket = { live_delivery: "no", live_delivery_reason: "no_inbox_socket" };
    expect(harnessLiveDelivery("")).toEqual(noSocket);
    expect(harnessLiveDelivery("", false)).toEqual(noSocket);
    expect(harnessLiveDelivery("", true)).toEqual(noSocket);
  });

  test("with a socket: yes, unless the gate is closed", () => {
    expect(harnessLiveDelivery(socket)).toEqual({ live_delivery: "yes" });
    expect(harnessLiveDelivery(socket, false)).toEqual({ live_delivery: "yes" });
    expect(harnessLiveDelivery(socket, true)).toEqual({
      live_delivery: "no",
      live_delivery_reason: "inbound_gate",
    });
  });

  test("a gate closed for a lasting reason: every reason but a settling setting", () => {
    expect(gateClosedLastingly({ open: true })).toBe(false);
    expect(gateClosedLastingly({ open: false, reason: "settings_settling" })).toBe(false);
    expect(gateClosedLastingly({ open: false, reason: "bypass" })).toBe(true);
    expect(gateClosedLastingly({ open: false, reason: "bypass_possible" })).toBe(true);
  });
});
