import { describe, expect, test } from "vitest";
import type { DashboardMessage, DashboardView } from "../../service/index.ts";
import { bodyView } from "./body-view.ts";
import { dashboardPage, liveRegion } from "./dashboard-pages.ts";
import { escapeHtml, html } from "./html.ts";

const HOSTILE = `"><img src=x onerror=alert(1)><script>x</script>`;
const T0 = Date.UTC(2026, 11, 5, 2, 40, 12);

function message(overrides: Partial<DashboardMessage> = {}): DashboardMessage {
  return {
    message_id: "m-1",
    recipient_session_id: "s-b",
    sent_to_session_id: null,
    summary: null,
    created_at: T0,
    acked_at: null,
    disposition: null,
    disposition_at: null,
    recipient_closed_at: null,
    recipient_lease_until: T0 + 90_000,
    sender_principal_ref: "p-a",
    sender_session_id: "s-a",
    sender_session_name: "alpha",
    sender_human_label: "Ann",
    recipient_principal_ref: "p-b",
    recipient_session_name: "beta",
    body: "hello",
    released_at: null,
    state: "accepted",
    state_since: T0,
    outgoing: true,
    ...overrides,
  };
}

function view(overrides: Partial<DashboardView> = {}): DashboardView {
  return {
    now: T0 + 1_000,
    principalRef: "p-a",
    team: {
      team_ref: "t-1",
      team_name: HOSTILE,
      secret_digest: "x",
      creator_principal_ref: "p-a",
      offered_to_principal_ref: null,
      offer_expires_at: null,
      created_at: T0,
    },
    viewerLabel: HOSTILE,
    isCreator: true,
    members: [
      {
        principal_ref: "p-a",
        human_label: HOSTILE,
        joined_at: T0,
        last_seen_at: T0,
        live_session_count: 1,
      },
    ],
    sessions: [],
    messages: [],
    ...overrides,
  };
}

describe("escaping", () => {
  test("every value is text: the five characters that could end markup become references", () => {
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe(
      "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml("\uD800x")).toBe("\uFFFDx");
    expect(html`<p title="${HOSTILE}">${HOSTILE}</p>`.text).not.toMatch(/<img|<script|"><img/);
  });

  test("a hostile team name, label, session name, summary and file name never become markup", () => {
    const v = view({
      sessions: [
        {
          session_id: "s-a",
          team_ref: "t-1",
          principal_ref: "p-a",
          session_name: HOSTILE,
          activity: "idle",
          inbound: "accept",
          session_description: null,
          workspace_label: null,
          model: null,
          context_used_tokens: null,
          brigade_version: null,
          sync_peer: null,
          live_delivery: "yes",
          live_delivery_at: T0,
          harness: HOSTILE,
          harness_version: HOSTILE,
          lease_seconds: 90,
          lease_until: T0 + 90_000,
          last_seen_at: T0,
          created_at: T0,
          closed_at: null,
          human_label: HOSTILE,
        },
      ],
      messages: [
        message({
          summary: HOSTILE,
          recipient_session_name: HOSTILE,
          attachments: [{ sha256: "a".repeat(64), size: 12, name: HOSTILE }],
        }),
      ],
    });
    for (const name of ["sessions", "messages", "held", "admin"] as const) {
      const page = dashboardPage(name, v, { csrf: "tok", version: "1" });
      expect(page).not.toContain("<img");
      expect(page).not.toMatch(/<script>/);
      expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    }
  });
});

describe("messages", () => {
  test("attachments are listed by name, size and digest", () => {
    const v = view({
      messages: [
        message({ attachments: [{ sha256: "b".repeat(64), size: 2048, name: "report.pdf" }] }),
      ],
    });
    const sent = liveRegion("sent", v, "tok").text;
    expect(sent).toContain('aria-label="Attachments"');
    expect(sent).toContain(
      'report.pdf <span class="muted">2048 bytes, sha256 bbbbbbbbbbbb…</span>',
    );
  });

  test("the timeline names each step the message went through", () => {
    const v = view({
      messages: [
        message({
          message_id: "m-held",
          disposition: "held",
          disposition_at: T0 + 1_000,
          released_at: T0 + 2_000,
          acked_at: T0 + 3_000,
          state: "acked",
          state_since: T0 + 3_000,
        }),
        message({
          message_id: "m-gone",
          recipient_closed_at: T0 + 5_000,
          state: "undeliverable",
          state_since: T0 + 5_000,
        }),
      ],
    });
    const sent = liveRegion("sent", v, "tok").text;
    const steps = (id: string) => {
      const item = sent.split(`data-message="${id}"`)[1] ?? "";
      const list = item.split("</ol>")[0] ?? "";
      return [...list.matchAll(/<li>([a-z() ]+) </g)].map((m) => m[1]);
    };
    expect(steps("m-held")).toEqual([
      "accepted",
      "held",
      "released by its person",
      "in context (acked)",
    ]);
    expect(steps("m-gone")).toEqual(["accepted", "undeliverable"]);
  });

  test("the body view marks each forged tag (its opener and name) and counts them as brigade inspect does", () => {
    const { markup, findings } = bodyView("a <system-reminder> b </brigade-message> c &lt;x");
    expect(findings.forged).toBe(2);
    expect(markup.text).toBe(
      '<pre class="body">a <mark class="forged" title="forged system-reminder tag">&lt;system-reminder</mark>&gt; b <mark class="forged" title="forged closing brigade-message tag">&lt;/brigade-message</mark>&gt; c &amp;lt;x</pre>',
    );
  });
});

describe("sessions", () => {
  test("the lane and liveness read from what the harness said", () => {
    const row = (id: string, live: string | null, closed: number | null = null) => ({
      session_id: id,
      team_ref: "t-1",
      principal_ref: "p-a",
      session_name: id,
      activity: "idle" as const,
      inbound: "accept" as const,
      session_description: null,
      workspace_label: null,
      model: null,
      context_used_tokens: null,
      brigade_version: null,
      sync_peer: null,
      live_delivery: live,
      live_delivery_at: live === null ? null : T0,
      harness: "h",
      harness_version: "1",
      lease_seconds: 90,
      lease_until: T0 + 90_000,
      last_seen_at: T0,
      created_at: T0,
      closed_at: closed,
      human_label: "Ann",
    });
    const table = liveRegion(
      "sessions",
      view({
        sessions: [
          row("s-push", "yes"),
          row("s-pull", "pull_lane"),
          row("s-gate", "inbound_gate"),
          row("s-quiet", null),
          row("s-done", "yes", T0 + 500),
        ],
      }),
      "tok",
    ).text;
    const cells = (id: string) => {
      const tr = table.split(`<th scope="row">${id}</th>`)[1]?.split("</tr>")[0] ?? "";
      const cell = (label: string) =>
        new RegExp(`data-label="${label}">([\\s\\S]*?)</td>`).exec(tr)?.[1];
      return [cell("Lane"), cell("Live")?.replace(/<[^>]+>/g, "")];
    };
    expect(cells("s-push")).toEqual(["push", "live"]);
    expect(cells("s-pull")).toEqual([
      "pull",
      "online, not live pull lane: messages wait for its next turn",
    ]);
    expect(cells("s-gate")).toEqual([
      "push",
      "online, not live the client holds posts for its user",
    ]);
    expect(cells("s-quiet")).toEqual(["—", "online live delivery not said"]);
    expect(cells("s-done")?.[1]).toBe("offline closed");
  });
});

describe("the team admin view's transfer offer [ours]", () => {
  const bob = {
    principal_ref: "p-b",
    human_label: "Bob",
    joined_at: T0,
    last_seen_at: null,
    live_session_count: 0,
  };
  const offeredUntil = (end: number, now: number) => {
    const v = view({ now, members: [...view().members, bob] });
    const team = { ...v.team, offered_to_principal_ref: "p-b", offer_expires_at: end };
    const page = dashboardPage("admin", { ...v, team }, { csrf: "tok", version: "1" });
    return /<button type="submit">(Offered[^<]*<time[^>]*>[^<]*<\/time>[^<]*|Offer the team)<\/button>/.exec(
      page.split('<th scope="row">Bob</th>')[1] ?? "",
    )?.[1];
  };

  test("a standing offer shows when it expires; one past its end is shown as none", () => {
    const end = T0 + 7 * 24 * 3600 * 1000;
    expect(offeredUntil(end, end - 1)).toBe(
      'Offered until <time datetime="2026-12-12T02:40:12.000Z">2026-12-12 02:40:12 UTC</time>: offer again',
    );
    expect(offeredUntil(end, end)).toBe("Offer the team");
  });
});
