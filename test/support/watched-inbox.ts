import type { BrigadeService } from "../../src/service/index.ts";
import { sessionRegistration } from "./session-registration.ts";

/** The world {@link watchedInbox} builds, and what the watch has heard so far. */
export interface WatchedInbox {
  /** Principal A, who sends. */
  readonly a: string;
  /** Principal B, whose inbox is watched. */
  readonly b: string;
  /** The team both are members of. */
  readonly T: string;
  /** B's watched session. */
  readonly inbox: string;
  /** Every message id the watch delivered, in order of delivery. */
  readonly heard: string[];
  /** Whether the watch was revoked. */
  revoked(): boolean;
  /** Sends `body` from A's session to the inbox through `there`; resolves to the message id. */
  send(body: string): Promise<string>;
}

/**
 * Through `there`, creates principals A and B, a team `core` with both, and a session each
 * (`sender` for A, `inbox` for B); then watches B's inbox through `here`. With one service for
 * both, the watch is in-process; with two services over one database, a delivery crosses the
 * store's watch feed.
 *
 * @example const w = await watchedInbox(here, there); const id = await w.send("hi");
 */
export async function watchedInbox(
  here: BrigadeService,
  there: BrigadeService,
): Promise<WatchedInbox> {
  const a = (await there.createPrincipal()).principal_ref;
  const b = (await there.createPrincipal()).principal_ref;
  const team = await there.createTeam(a, { team_name: "core" });
  await there.joinTeam(b, { join_secret: team.join_secret });
  const T = team.team_ref;
  const sender = (await there.registerSession(a, T, sessionRegistration("sender"))).session_id;
  const inbox = (await there.registerSession(b, T, sessionRegistration("inbox"))).session_id;
  const heard: string[] = [];
  let revoked = false;
  await here.subscribe(b, T, inbox, {
    onMessages: (ids) => heard.push(...ids),
    onRevoked: () => {
      revoked = true;
    },
  });
  const send = async (body: string) =>
    (
      await there.sendMessage(a, T, {
        sender_session_id: sender,
        recipient_session_id: inbox,
        body,
      })
    ).message_id;
  return { a, b, T, inbox, heard, revoked: () => revoked, send };
}
