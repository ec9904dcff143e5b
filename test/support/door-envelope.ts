/**
 * A teammate's message as the server hands it out to a push door's inbound pipeline (the
 * pipeline's `offer` input): from dana's session `s-dana` (principal `p-dana`), hop 1, with
 * `body` under id `id`. The door suites of each client feed their real client with it.
 *
 * @example pipeline.offer(doorEnvelope("m-1", "the schema changed"));
 */
export function doorEnvelope(id: string, body: string) {
  return {
    message_id: id,
    sender: {
      principal_ref: "p-dana",
      session_id: "s-dana",
      session_name: "api",
      human_label: "dana@example.org",
    },
    summary: "Schema bumped",
    body,
    reply_to: null,
    hop_count: 1,
    created_at: "2026-12-05T00:00:00.000Z",
  };
}
