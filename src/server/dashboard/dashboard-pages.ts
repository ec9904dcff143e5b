import type { InvitationRecord, TeamInvitationsResult } from "../../protocol/index.ts";
import { type DashboardMessage, type DashboardView, offerStands } from "../../service/index.ts";
import { isoTime, toSessionRecord } from "../../service/wire-records.ts";
import { bodyView } from "./body-view.ts";
import { type Html, html, trusted } from "./html.ts";

/** The dashboard's views, one page each (docs/52-dashboard.md). */
export const DASHBOARD_VIEWS = ["sessions", "messages", "held", "admin"] as const;
/** One of {@link DASHBOARD_VIEWS}. */
export type DashboardViewName = (typeof DASHBOARD_VIEWS)[number];

/** The path of each view. */
export const VIEW_PATHS: Readonly<Record<DashboardViewName, string>> = Object.freeze({
  sessions: "/dashboard",
  messages: "/dashboard/messages",
  held: "/dashboard/held",
  admin: "/dashboard/admin",
});

const VIEW_TITLES: Readonly<Record<DashboardViewName, string>> = Object.freeze({
  sessions: "Sessions",
  messages: "Messages",
  held: "Held for you",
  admin: "Team admin",
});

/** The live regions of the dashboard: each is re-rendered and sent over the event stream. */
export const LIVE_REGIONS = [
  "sessions",
  "sent",
  "received",
  "held",
  "members",
  "held-count",
] as const;
/** One of {@link LIVE_REGIONS}. */
export type LiveRegion = (typeof LIVE_REGIONS)[number];

/** What a page needs besides the view: the form token, the version, and the admin's extras. */
export interface PageExtras {
  readonly csrf: string;
  readonly version: string;
  /** The team's invitations, for the creator's admin view. */
  readonly invitations?: TeamInvitationsResult;
  /** A one-time notice at the top of the page (a secret shown once, an action's outcome). */
  readonly notice?: Html;
  /**
   * The compose form's one-time key (`idempotency_key` of the send it makes: a second submit of
   * the same form sends nothing twice) and what to put back in it after a refusal.
   */
  readonly compose?: ComposeDraft;
}

/** The compose form's state: its key and, after a refusal, what the person had written. */
export interface ComposeDraft {
  readonly key: string;
  readonly to?: string;
  readonly summary?: string;
  readonly body?: string;
}

/** A time as `2026-12-05 02:40:12 UTC` in a `<time>` element. */
function when(ms: number): Html {
  const iso = isoTime(ms);
  return html`<time datetime="${iso}">${iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")}</time>`;
}

/** The label a person is shown by, with `(you)` for the viewer. */
function personName(view: DashboardView, principalRef: string, label: string | null): Html {
  const member = view.members.find((m) => m.principal_ref === principalRef);
  const text = label ?? member?.human_label ?? null;
  const shown =
    text === null || text === "" ? html`<span class="muted">(no label)</span>` : html`${text}`;
  const you = principalRef === view.principalRef ? html` <span class="tag">you</span>` : "";
  const creator =
    principalRef === view.team.creator_principal_ref ? html` <span class="tag">creator</span>` : "";
  return html`${shown}${you}${creator}`;
}

/** The whole page of `name`, as a document. */
export function dashboardPage(
  name: DashboardViewName,
  view: DashboardView,
  extras: PageExtras,
): string {
  const held = heldFor(view).length;
  const nav = DASHBOARD_VIEWS.map((v) => {
    const current = v === name ? trusted(' aria-current="page"') : "";
    const count =
      v === "held" ? html` <span data-region="held-count">${heldCount(held)}</span>` : "";
    return html`<li><a href="${VIEW_PATHS[v]}"${current}>${VIEW_TITLES[v]}</a>${count}</li>`;
  });
  const body = viewBody(name, view, extras);
  const me = personName(view, view.principalRef, view.viewerLabel);
  return document(
    `${VIEW_TITLES[name]} · ${view.team.team_name} · Brigade`,
    html`<header class="banner">
  <p class="brand">Brigade <span class="team">${view.team.team_name}</span></p>
  <p class="me">Signed in as <strong>${me}</strong></p>
  <form method="post" action="/dashboard/logout" class="signout">
    <input type="hidden" name="csrf" value="${extras.csrf}">
    <button type="submit">Sign out</button>
  </form>
</header>
<nav aria-label="Dashboard views"><ul>${nav}</ul></nav>
<main id="main" tabindex="-1">
  <h1>${VIEW_TITLES[name]}</h1>
  ${extras.notice ?? ""}
  ${body}
  <p id="live-status" class="live" role="status" aria-live="polite">Live updates: connecting…</p>
</main>
<footer><p>Brigade ${extras.version} · times in UTC · this page follows the server live</p></footer>`,
    true,
  );
}

function viewBody(name: DashboardViewName, view: DashboardView, extras: PageExtras): Html {
  switch (name) {
    case "sessions":
      return html`<p>Every session of the team, live or not, with who runs it.</p>
<div data-region="sessions">${liveRegion("sessions", view, extras.csrf)}</div>`;
    case "messages":
      return html`${composeForm(view, extras)}
<section aria-labelledby="sent-h"><h2 id="sent-h">Sent by you</h2>
<div data-region="sent">${liveRegion("sent", view, extras.csrf)}</div></section>
<section aria-labelledby="received-h"><h2 id="received-h">Received by your sessions</h2>
<div data-region="received">${liveRegion("received", view, extras.csrf)}</div></section>`;
    case "held":
      return html`<p>Messages your sessions hold for you. Release one to let the session take it in, or refuse it.</p>
<div data-region="held">${liveRegion("held", view, extras.csrf)}</div>`;
    case "admin":
      return adminBody(view, extras);
  }
}

/** The markup of one live region (what the event stream sends when it changed). */
export function liveRegion(region: LiveRegion, view: DashboardView, csrf: string): Html {
  switch (region) {
    case "sessions":
      return sessionsTable(view);
    case "sent":
      return messageList(
        view,
        view.messages.filter((m) => m.outgoing),
        "You have sent no message in this team yet.",
      );
    case "received":
      return messageList(
        view,
        view.messages.filter((m) => !m.outgoing),
        "Your sessions have received no message yet.",
      );
    case "held":
      return heldList(view, csrf);
    case "members":
      return membersTable(view, csrf);
    case "held-count":
      return heldCount(heldFor(view).length);
  }
}

function heldCount(n: number): Html {
  return n === 0 ? html`` : html`<span class="count">${n}<span class="sr"> held</span></span>`;
}

function sessionsTable(view: DashboardView): Html {
  if (view.sessions.length === 0) {
    return html`<p class="empty">No session has registered in this team yet.</p>`;
  }
  const rows = view.sessions.map((row) => {
    const record = toSessionRecord(row, row.human_label, view.now, false);
    const live =
      record.state === "offline"
        ? html`<span class="state off">offline</span> <span class="why">${row.closed_at === null ? "lease ran out" : "closed"}</span>`
        : record.live_delivery === "yes"
          ? html`<span class="state on">live</span>`
          : record.live_delivery === "no"
            ? html`<span class="state warn">online, not live</span> <span class="why">${notLiveText(record.live_delivery_reason)}</span>`
            : html`<span class="state on">online</span> <span class="why">live delivery not said</span>`;
    // The lane its harness said: pull when it has no door to post through, push otherwise
    // (live now, or a push lane that cannot deliver at the moment); nothing said, no lane shown.
    const lane =
      record.live_delivery === undefined
        ? "—"
        : record.live_delivery_reason === "pull_lane"
          ? "pull"
          : "push";
    return html`<tr>
  <th scope="row">${row.session_name}</th>
  <td data-label="Person">${personName(view, row.principal_ref, row.human_label)}</td>
  <td data-label="Harness">${row.harness} <span class="muted">${row.harness_version}</span></td>
  <td data-label="Lane">${lane}</td>
  <td data-label="Live">${live}</td>
  <td data-label="Inbound">${row.inbound}</td>
  <td data-label="Last seen">${when(row.last_seen_at)}</td>
  <td data-label="Started">${when(row.created_at)}</td>
</tr>`;
  });
  return html`<div class="scroll" role="region" aria-label="Sessions table" tabindex="0"><table class="cards">
<caption>${view.sessions.length} session${view.sessions.length === 1 ? "" : "s"}</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Person</th><th scope="col">Harness</th><th scope="col">Lane</th><th scope="col">Live</th><th scope="col">Inbound</th><th scope="col">Last seen</th><th scope="col">Started</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function notLiveText(reason: string | undefined): string {
  switch (reason) {
    case "no_inbox_socket":
      return "no messaging socket: messages wait for the next turn";
    case "inbound_gate":
      return "the client holds posts for its user";
    case "watcher_stopped":
      return "its delivery process stopped";
    case "watcher_silent":
      return "its delivery process went silent";
    case "pull_lane":
      return "pull lane: messages wait for its next turn";
    case "person_review":
      return "its client holds each message for its person to review";
    default:
      return "not live";
  }
}

const STATE_TEXT: Readonly<Record<DashboardMessage["state"], string>> = Object.freeze({
  accepted: "accepted, not taken yet",
  held: "held for the recipient's person",
  acked: "in the session's context",
  refused: "refused",
  undeliverable: "undeliverable: the session ended",
});

function timeline(message: DashboardMessage): Html {
  const steps: Html[] = [html`<li>accepted ${when(message.created_at)}</li>`];
  if (message.disposition === "held" && message.disposition_at !== null) {
    steps.push(html`<li>held ${when(message.disposition_at)}</li>`);
  }
  if (message.released_at !== null) {
    steps.push(html`<li>released by its person ${when(message.released_at)}</li>`);
  }
  if (message.disposition === "refused" && message.disposition_at !== null) {
    steps.push(html`<li>refused ${when(message.disposition_at)}</li>`);
  }
  if (message.acked_at !== null) {
    steps.push(html`<li>in context (acked) ${when(message.acked_at)}</li>`);
  } else if (message.state === "undeliverable") {
    steps.push(html`<li>undeliverable ${when(message.state_since)}</li>`);
  }
  return html`<ol class="timeline" aria-label="State timeline">${steps}</ol>`;
}

function messageItem(view: DashboardView, message: DashboardMessage, actions: Html | ""): Html {
  // A person's message names the principal as its sender session (capability message.person).
  const asPerson = message.sender_session_id === message.sender_principal_ref;
  const other = message.outgoing
    ? html`To <strong>${message.recipient_session_name}</strong> (${personName(view, message.recipient_principal_ref, null)})${asPerson ? html` <span class="tag">sent as you, a person</span>` : ""}`
    : asPerson
      ? html`From <strong>${personName(view, message.sender_principal_ref, message.sender_human_label)}</strong> <span class="tag">a person, not a session</span>, to ${message.recipient_session_name}`
      : html`From <strong>${message.sender_session_name}</strong> (${personName(view, message.sender_principal_ref, message.sender_human_label)})`;
  const summary =
    message.summary === null ? "" : html`<p class="summary">Summary: ${message.summary}</p>`;
  const files =
    message.attachments === undefined || message.attachments.length === 0
      ? ""
      : html`<ul class="files" aria-label="Attachments">${message.attachments.map(
          (a) =>
            html`<li>${a.name} <span class="muted">${a.size} bytes, sha256 ${a.sha256.slice(0, 12)}…</span></li>`,
        )}</ul>`;
  const body = bodyView(message.body);
  const found = body.findings;
  const flags =
    found.forged > 0
      ? html`<span class="alert">${found.forged} forged tag${found.forged === 1 ? "" : "s"}</span>`
      : "";
  return html`<li class="message" data-message="${message.message_id}" data-state="${message.state}">
  <p class="who">${other}</p>
  ${summary}
  <p class="state-line">State: <strong class="state ${message.state}">${STATE_TEXT[message.state]}</strong> since ${when(message.state_since)}</p>
  ${timeline(message)}
  ${files}
  <details><summary>Body, ${message.body.length} characters, as text ${flags}</summary>${body.markup}
  <p class="muted">Checked as <code>brigade inspect</code> reads it: ${found.frames} frame${found.frames === 1 ? "" : "s"}, ${found.forged} forged, ${found.authority} authority, ${found.neutralised} neutralised tag${found.neutralised === 1 ? "" : "s"}.</p></details>
  ${actions}
  <p class="muted id">Message ${message.message_id}</p>
</li>`;
}

function messageList(view: DashboardView, messages: DashboardMessage[], empty: string): Html {
  if (messages.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<ul class="messages">${messages.map((m) => messageItem(view, m, ""))}</ul>`;
}

/** The messages held for the viewer: received, held, not yet released or taken. */
function heldFor(view: DashboardView): DashboardMessage[] {
  return view.messages.filter((m) => !m.outgoing && m.state === "held");
}

function heldList(view: DashboardView, csrf: string): Html {
  const held = heldFor(view);
  if (held.length === 0) return html`<p class="empty">Nothing waits for you.</p>`;
  return html`<ul class="messages">${held.map((m) => {
    const actions =
      m.released_at === null
        ? html`<div class="actions">
  <form method="post" action="/dashboard/held/release"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="message_id" value="${m.message_id}"><button type="submit">Release</button></form>
  <form method="post" action="/dashboard/held/refuse"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="message_id" value="${m.message_id}"><button type="submit" class="danger">Refuse</button></form>
</div>`
        : html`<p class="note">Released ${when(m.released_at)}: the session takes it in on its next delivery.</p>`;
    return messageItem(view, m, actions);
  })}</ul>`;
}

function membersTable(view: DashboardView, csrf: string): Html {
  const rows = view.members.map((m) => {
    const self = m.principal_ref === view.principalRef;
    const offered =
      offerStands(view.team, view.now) && view.team.offered_to_principal_ref === m.principal_ref;
    const actions =
      view.isCreator && !self
        ? html`<form method="post" action="/dashboard/admin/remove-member"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="principal_ref" value="${m.principal_ref}"><button type="submit" class="danger">Remove</button></form>
<form method="post" action="/dashboard/admin/transfer"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="principal_ref" value="${m.principal_ref}"><button type="submit">${offered ? html`Offered until ${when(view.team.offer_expires_at ?? view.now)}: offer again` : "Offer the team"}</button></form>`
        : "";
    return html`<tr><th scope="row">${personName(view, m.principal_ref, m.human_label)}</th><td><code>${m.principal_ref}</code></td><td>${when(m.joined_at)}</td><td>${m.last_seen_at === null ? "never" : when(m.last_seen_at)}</td><td>${m.live_session_count}</td><td>${actions}</td></tr>`;
  });
  return html`<div class="scroll" role="region" aria-label="Members table" tabindex="0"><table>
<caption>${view.members.length} member${view.members.length === 1 ? "" : "s"}</caption>
<thead><tr><th scope="col">Person</th><th scope="col">Principal</th><th scope="col">Joined</th><th scope="col">Last seen</th><th scope="col">Live sessions</th><th scope="col"><span class="sr">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function invitationRow(record: InvitationRecord, csrf: string): Html {
  const revoke =
    record.state === "active"
      ? html`<form method="post" action="/dashboard/admin/revoke-invite"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="invitation_id" value="${record.invitation_id}"><button type="submit" class="danger">Revoke</button></form>`
      : "";
  return html`<tr><th scope="row"><code>${record.invitation_id}</code></th><td>${record.state}</td><td>${record.uses} of ${record.max_uses}</td><td>${record.expires_at}</td><td>${revoke}</td></tr>`;
}

function adminBody(view: DashboardView, extras: PageExtras): Html {
  const members = html`<section aria-labelledby="members-h"><h2 id="members-h">Members</h2>
<div data-region="members">${liveRegion("members", view, extras.csrf)}</div></section>`;
  if (!view.isCreator) {
    return html`<p>Only the team's creator manages the team: rotating its secret, invitations, removing a member and handing the team on.</p>${members}`;
  }
  const invitations = extras.invitations?.invitations ?? [];
  const list =
    invitations.length === 0
      ? html`<p class="empty">No invitation yet.</p>`
      : html`<div class="scroll" role="region" aria-label="Invitations table" tabindex="0"><table><caption>Invitations, newest first</caption>
<thead><tr><th scope="col">Invitation</th><th scope="col">State</th><th scope="col">Used</th><th scope="col">Expires</th><th scope="col"><span class="sr">Actions</span></th></tr></thead>
<tbody>${invitations.map((r) => invitationRow(r, extras.csrf))}</tbody></table></div>`;
  return html`${members}
<section aria-labelledby="invite-h"><h2 id="invite-h">Invitations</h2>
<form method="post" action="/dashboard/admin/invite" class="inline">
  <input type="hidden" name="csrf" value="${extras.csrf}">
  <label for="uses">Uses</label> <input id="uses" name="uses" type="number" min="1" max="100" value="1" inputmode="numeric">
  <label for="expires">Expires in</label> <select id="expires" name="expires"><option value="3600">1 hour</option><option value="86400" selected>24 hours</option><option value="604800">7 days</option></select>
  <button type="submit">Make an invitation</button>
</form>
${list}</section>
<section aria-labelledby="secret-h"><h2 id="secret-h">Team secret</h2>
<p>Rotating the join secret stops the old one and revokes every active invitation.</p>
<form method="post" action="/dashboard/admin/rotate-secret"><input type="hidden" name="csrf" value="${extras.csrf}"><button type="submit" class="danger">Rotate the team secret</button></form></section>`;
}

/**
 * The form a person writes to a session with, as themselves (`message person-send`): the
 * team's live sessions to choose from, an optional summary, the body. Not a live region, so
 * nothing the person types is replaced while they type.
 */
function composeForm(view: DashboardView, extras: PageExtras): Html {
  const live = view.sessions.filter((s) => s.closed_at === null && s.lease_until >= view.now);
  const draft = extras.compose;
  if (draft === undefined) return html``;
  if (live.length === 0) {
    return html`<section aria-labelledby="compose-h"><h2 id="compose-h">Write to a session</h2><p class="empty">No session is live to write to.</p></section>`;
  }
  const options = live.map(
    (s) =>
      html`<option value="${s.session_id}"${s.session_id === draft.to ? trusted(" selected") : ""}>${s.session_name} (${s.human_label ?? "no label"}${s.principal_ref === view.principalRef ? ", yours" : ""})</option>`,
  );
  return html`<section aria-labelledby="compose-h"><h2 id="compose-h">Write to a session</h2>
<p>The session reads it as your message, a person's, under your label; it cannot reply to you there.</p>
<form method="post" action="/dashboard/compose" class="compose">
  <input type="hidden" name="csrf" value="${extras.csrf}">
  <input type="hidden" name="key" value="${draft.key}">
  <label for="to">To</label> <select id="to" name="to" required>${options}</select>
  <label for="summary">Summary (optional)</label> <input id="summary" name="summary" maxlength="200" value="${draft.summary ?? ""}">
  <label for="body">Message</label> <textarea id="body" name="body" required rows="5">${draft.body ?? ""}</textarea>
  <button type="submit">Send as yourself</button>
</form></section>`;
}

/** A short notice (a one-time secret, an outcome) placed at the top of the next page. */
export function notice(kind: "ok" | "error", content: Html): Html {
  const role = kind === "error" ? trusted(' role="alert"') : trusted(' role="status"');
  return html`<div class="notice ${kind}"${role}>${content}</div>`;
}

/** A page without a session: signed out, a login link to confirm, or a refusal. */
export function plainPage(title: string, content: Html): string {
  return document(
    `${title} · Brigade`,
    html`<header class="banner"><p class="brand">Brigade</p></header>
<main id="main" tabindex="-1"><h1>${title}</h1>${content}</main>
<footer><p>Brigade dashboard</p></footer>`,
    false,
  );
}

/** The page a login link opens: one button that exchanges the link for a session. */
export function loginPage(code: string | null): string {
  if (code === null) {
    return plainPage(
      "Sign in",
      html`<p>This sign-in link is not complete. Run <code>brigade dashboard</code> in your terminal for a new one.</p>`,
    );
  }
  return plainPage(
    "Sign in",
    html`<p>Sign in to your team's dashboard with the link <code>brigade dashboard</code> printed. The link works once, for 5 minutes.</p>
<form method="post" action="/dashboard/login"><input type="hidden" name="code" value="${code}"><button type="submit" id="sign-in">Sign in</button></form>`,
  );
}

function document(title: string, body: Html, live: boolean): string {
  const script = live
    ? trusted('<script type="module" src="/dashboard/assets/dashboard.js"></script>')
    : "";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
${script}
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
${body}
</body>
</html>
`.text;
}
