import type { FrameEnvelope } from "../../src/formats/frame/index.ts";

/**
 * Envelope E of docs/spec/formats.md §2.11: the frame's canonical example, shared by the frame's
 * tests and the sentinel-framed delivery of `brigade mcp`.
 *
 * @example build(ENVELOPE_E, "core", { level: "open", custom: "" })
 */
export const ENVELOPE_E: FrameEnvelope = {
  message_id: "m-7f3a",
  sender: {
    principal_ref: "p-41c9",
    human_label: "dana@example.org",
    session_id: "s-2b8e",
    session_name: "billing-svc",
  },
  summary: "Schema bumped",
  body: "Column plan_tier is now NOT NULL.\nRun the backfill first.",
  reply_to: null,
  hop_count: 1,
  created_at: "2026-10-02T11:15:42.618+02:00",
};
