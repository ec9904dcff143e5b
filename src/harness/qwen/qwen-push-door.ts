import type { DoorContext, DoorOpening, DoorSession } from "../host-session/index.ts";
import { envelopeHolds, qwenConversationFile, qwenDeliveredTexts } from "./qwen-conversation.ts";
import { QwenDelivery } from "./qwen-delivery.ts";
import { QwenPeerDoor } from "./qwen-door.ts";
import { QWEN_RUNTIME_DIR_VARIABLE } from "./qwen-facts.ts";
import { qwenHome } from "./qwen-install.ts";
import {
  findQwenSession,
  linuxProcessIdentity,
  type ProcessIdentity,
  type QwenSessionLookup,
} from "./qwen-registry.ts";
import { readQwenControllerToken } from "./qwen-token.ts";

/**
 * Why {@link openQwenDoor} opened no door, so the session keeps the pull lane (docs/errors.md
 * `QWEN_DOOR_REFUSALS`): `no_home` (no absolute Qwen home), `qwen_no_record`, `qwen_not_trusted`,
 * `qwen_no_inbox` (the registry lookup, `QWEN_SESSION_LOOKUP_FAILURES`, after waiting for the
 * record), `door_unbound` (Brigade's own receipt inbox could not be bound).
 */
export const QWEN_DOOR_REFUSALS = [
  "no_home",
  "qwen_no_record",
  "qwen_not_trusted",
  "qwen_no_inbox",
  "door_unbound",
] as const;

/** What {@link openQwenDoor} reads besides the session (tests replace parts). */
export interface QwenDoorDeps {
  readonly uid: number;
  readonly identity?: ProcessIdentity;
  /** How long to wait for the session's registry record at the start, ms (default 10,000). */
  readonly recordWaitMs?: number;
  /** Where the door's own inbox folder is made (default the OS temp folder). */
  readonly parent?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Opens Qwen Code's door into one live session for the shared push lane (docs/49-qwen.md "The
 * push lane"): the session is the registry record of the by-pid map's process (the `cli.js`
 * process) holding the map's Qwen session id, trusted only while pid and start identity match
 * (waited for up to `recordWaitMs`: the session-start hook may run before Qwen Code writes it);
 * the consent is the person's controller token from Brigade's configuration folder
 * (`readQwenControllerToken`) — without one the door still opens, and Qwen Code holds every
 * message for the person (`heldForPerson`); the confirmation is Qwen Code's own record of the
 * conversation (the map's `transcript_path`, else the record found under the runtime folder).
 * Not opened (the session keeps the pull lane): `no_home`, and the registry's `no_record`,
 * `not_trusted`, `no_inbox` (each prefixed `qwen_`), `door_unbound` (Brigade's own inbox could
 * not be bound). Never throws.
 *
 * @example const opening = await openQwenDoor(session, ctx, { uid: process.getuid() });
 */
export async function openQwenDoor(
  session: DoorSession,
  ctx: DoorContext,
  deps: QwenDoorDeps,
): Promise<DoorOpening> {
  const home = qwenHome(session.env);
  if (home === undefined) return { ok: false, reason: "no_home" };
  const identity = deps.identity ?? linuxProcessIdentity();
  const pid = session.map.claude_pid;
  const sessionId = session.map.claude_session_id;
  const lookup = (): QwenSessionLookup => findQwenSession(home, pid, identity, sessionId);
  const deadline = Date.now() + (deps.recordWaitMs ?? 10_000);
  let found = lookup();
  while (!found.ok && Date.now() < deadline) {
    await sleep(250);
    found = lookup();
  }
  if (!found.ok) return { ok: false, reason: `qwen_${found.reason}` };
  const read = readQwenControllerToken(session.configDir, deps.uid);
  if (!read.ok) ctx.log("warn", "qwen_token_unreadable", {});
  const token = read.ok ? read.token : undefined;
  const runtime = session.env[QWEN_RUNTIME_DIR_VARIABLE] || home;
  const transcript = session.map.transcript_path;
  const recordFile = (): string | undefined =>
    transcript?.startsWith("/") === true ? transcript : qwenConversationFile(runtime, sessionId);
  let delivery: QwenDelivery | undefined;
  let door: QwenPeerDoor;
  try {
    door = await QwenPeerDoor.open({
      fromName: "brigade",
      onTransition: (transition) => delivery?.onTransition(transition),
      ...(deps.parent === undefined ? {} : { parent: deps.parent }),
    });
  } catch {
    return { ok: false, reason: "door_unbound" };
  }
  delivery = new QwenDelivery({
    ...ctx,
    post: (record, authToken, msgId, content) => door.post(record, authToken, msgId, content),
    session: lookup,
    controllerToken: token,
    inConversation: (content) => {
      const file = recordFile();
      return file !== undefined && qwenDeliveredTexts(file).some((t) => envelopeHolds(t, content));
    },
    closeDoor: () => door.close(),
  });
  ctx.log("info", "qwen_door_open", { consent: token === undefined ? "none" : "controller" });
  return { ok: true, door: delivery, heldForPerson: token === undefined };
}
