import { oneLine, sanitizeId } from "../formats/sanitize/index.ts";
import {
  bapErrorLine,
  displayId,
  displayName,
  displayText,
  notLiveReason,
} from "../harness/session-context/index.ts";
import {
  hasCapability,
  isBapError,
  type SessionRecord,
  type TeamMembersResult,
} from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import { scanTerminal } from "./inbox-command.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";
import { loadPersonContext } from "./person-context.ts";

/** Per-call budget of `brigade status`'s adapter calls, ms. */
export const STATUS_TIMEOUT_MS = 10_000;

const HELP = `usage: brigade status [--json]

Shows, for the team of the folder you are in (the checkout you joined): the team and its server,
whether the connection to it is encrypted (TLS), who you are in it, your sessions that are live
now with how each receives messages (its lane, else its client), and the messages held for you
on this machine (brigade inbox lists them; brigade inbox release delivers them). Names and
labels are set by each teammate's machine and are unverified.
  --json   print the same as one JSON document
`;

/**
 * How the team's server is reached: `https` (TLS), `loopback_http` (plain http to this
 * machine only), `plain_http` (plain http to another host: unencrypted).
 *
 * @example transportOf("https://brigade.example.org") === "https"
 */
export function transportOf(server: string): "https" | "loopback_http" | "plain_http" {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return "plain_http";
  }
  if (url.protocol === "https:") return "https";
  const host = url.hostname;
  const loopback =
    host === "localhost" || host === "[::1]" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
  return loopback ? "loopback_http" : "plain_http";
}

const TRANSPORT_TEXT = {
  https: "TLS (https)",
  loopback_http: "no TLS: plain http to this machine only",
  plain_http: "no TLS: plain http to another host, readable and changeable on the way",
} as const;

/** How a session receives: the lane a newer server reports, else its client and version. */
function laneOf(s: SessionRecord): string {
  const lane = (s as { readonly lane?: unknown }).lane;
  if (typeof lane === "string" && lane !== "") return oneLine(lane, 32);
  const client = oneLine(s.harness ?? "", 32);
  const version = oneLine(s.harness_version ?? "", 32);
  if (client === "") return "-";
  return version === "" ? client : `${client} ${version}`;
}

/**
 * `brigade status [--json]`: the person's view of the folder's team in a few lines — the team and
 * its server with its transport ({@link transportOf}), the person (label, creator or not), their
 * live sessions with lane (a `lane` member when the server reports one, else the client) and
 * policy, and the messages held for them on this machine (counts and senders' names, never a
 * summary or body). Every remote string sanitised. Calls: `session list` (offline included) and,
 * with `team.roster`, `team members`. Exit 0; 2 usage; 11 no team for the folder; else the BAP
 * status of a failed call.
 *
 * @example await runStatus([], io) // 0
 */
export async function runStatus(argv: string[], io: CliIo): Promise<number> {
  const flags = parseCommandFlags("status", argv, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const ctx = await loadPersonContext(io, STATUS_TIMEOUT_MS);
  if (!ctx.ok) {
    io.stderr(`brigade status: ${ctx.line}\n`);
    return ctx.status;
  }
  let sessions: SessionRecord[];
  let members: TeamMembersResult | undefined;
  try {
    const list = await ctx.adapter.sessionList({ includeOffline: true });
    sessions = list.sessions.filter((s) => s.principal_ref === ctx.principalRef);
    const roster = hasCapability((await ctx.adapter.describe()).capabilities, "team.roster");
    members = roster ? await ctx.adapter.teamMembers() : undefined;
  } catch (error) {
    if (!isBapError(error)) throw error;
    io.stderr(`brigade status: ${bapErrorLine(error)}\n`);
    return error.exitStatus;
  }
  const me = members?.members.find((m) => m.principal_ref === ctx.principalRef);
  const live = sessions.filter((s) => s.state !== "offline");
  const mine = new Set(sessions.map((s) => s.session_id));
  const held = (scanTerminal(io.env)?.sessions ?? [])
    .filter((h) => mine.has(h.sessionId))
    .map((h) => ({
      session_id: sanitizeId(h.sessionId),
      session_name: displayName(
        h.sessionName ?? sessions.find((s) => s.session_id === h.sessionId)?.session_name ?? "",
      ),
      count: h.records.length,
      senders: [...new Set(h.records.map((r) => displayName(r.sender_name)))],
    }));
  const transport = transportOf(ctx.server);
  const doc = {
    team: {
      team_ref: sanitizeId(ctx.teamRef),
      team_name: displayName(ctx.teamName),
      server: oneLine(ctx.server, 200),
      transport,
    },
    you: {
      principal_ref: sanitizeId(ctx.principalRef),
      human_label: me === undefined ? "" : oneLine(me.human_label, 128),
      creator: members?.creator_principal_ref === ctx.principalRef,
    },
    labels_verified: false,
    sessions: live.map((s) => ({
      session_id: sanitizeId(s.session_id),
      session_name: displayName(s.session_name),
      state: s.state,
      lane: laneOf(s),
      inbound: s.inbound,
      not_live_reason: notLiveReason(s) ?? "",
    })),
    offline_sessions: sessions.length - live.length,
    held,
  };
  if (flags.json === true) {
    io.stdout(`${JSON.stringify(doc)}\n`);
    return 0;
  }
  io.stdout(statusText(doc));
  return 0;
}

function statusText(doc: {
  team: {
    team_ref: string;
    team_name: string;
    server: string;
    transport: keyof typeof TRANSPORT_TEXT;
  };
  you: { principal_ref: string; human_label: string; creator: boolean };
  sessions: readonly {
    session_id: string;
    session_name: string;
    state: string;
    lane: string;
    inbound: string;
    not_live_reason: string;
  }[];
  offline_sessions: number;
  held: readonly { session_id: string; session_name: string; count: number; senders: string[] }[];
}): string {
  const label =
    doc.you.human_label === "" ? "(no label)" : `"${displayText(doc.you.human_label, 128)}"`;
  const lines = [
    `Team ${doc.team.team_name} (${doc.team.team_ref}) on ${doc.team.server}: ${TRANSPORT_TEXT[doc.team.transport]}.`,
    `You: ${label} (${doc.you.principal_ref})${doc.you.creator ? ", the team's creator" : ""}. Labels are unverified.`,
  ];
  const offline = doc.offline_sessions === 0 ? "" : ` (${doc.offline_sessions} offline not shown)`;
  if (doc.sessions.length === 0) {
    lines.push(`Your live sessions: none${offline}.`);
  } else {
    lines.push(`Your live sessions: ${doc.sessions.length}${offline}:`);
    for (const s of doc.sessions) {
      const policy =
        s.not_live_reason === "" ? s.inbound : `${s.inbound}, not live: ${s.not_live_reason}`;
      lines.push(
        `  ${s.session_name}  ${displayId(s.session_id)}  ${s.state}  lane ${s.lane}  inbound ${policy}`,
      );
    }
  }
  const total = doc.held.reduce((n, h) => n + h.count, 0);
  if (total === 0) {
    lines.push("Waiting for you: nothing held on this machine.");
  } else {
    lines.push(
      `Waiting for you: ${total} held message${total === 1 ? "" : "s"} (brigade inbox lists them; brigade inbox release delivers them):`,
    );
    for (const h of doc.held) {
      lines.push(
        `  ${h.count} for ${h.session_name} (${h.session_id}), from ${h.senders.join(", ")}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
