import { describe, expect, test } from "vitest";
import { harnessLiveDelivery } from "./live-delivery-report.ts";

describe("harnessLiveDelivery", () => {
  const socket = "/run/user/1000/cc/inbox.sock";

  test("no inbox socket is no_inbox_socket, whatever the gate says", () => {
    const noSocket = { live_delivery: "no", live_delivery_reason: "no_inbox_socket" };
    expect(harnessLiveDelivery("")).toEqual(noSocket);
    expect(harnessLiveDelivery("", { open: true })).toEqual(noSocket);
    expect(harnessLiveDelivery("", { open: false, reason: "bypass" })).toEqual(noSocket);
  });

  test("with a socket: yes, unless the gate is closed for a lasting reason", () => {
    expect(harnessLiveDelivery(socket)).toEqual({ live_delivery: "yes" });
    expect(harnessLiveDelivery(socket, { open: true })).toEqual({ live_delivery: "yes" });
    expect(harnessLiveDelivery(socket, { open: false, reason: "settings_settling" })).toEqual({
      live_delivery: "yes",
    });
    for (const reason of ["bypass", "bypass_possible"] as const) {
      expect(harnessLiveDelivery(socket, { open: false, reason })).toEqual({
        live_delivery: "no",
        live_delivery_reason: "inbound_gate",
      });
    }
  });
});
