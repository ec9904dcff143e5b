import { type CallOutcome, call, must } from "./load-client.ts";
import { sessionRegistration } from "./session-registration.ts";

/** One logical send: a sender session, a recipient, an idempotency key and every answer it got. */
export interface SendRecord {
  readonly sender: string;
  readonly recipient: string;
  readonly key: string;
  readonly body: string;
  readonly outcomes: CallOutcome[];
}

/** A message row as the database holds it (whatever the store). */
export interface StoredMessage {
  readonly message_id: string;
  readonly sender_session_id: string;
  readonly recipient_session_id: string;
  readonly idempotency_key: string | null;
  readonly acked: boolean;
}

/** What the invariant checker reads from the database after the run. */
export interface DatabaseView {
  /** Every message sent from one of `senderSessionIds`. */
  messagesFrom(senderSessionIds: readonly string[]): Promise<StoredMessage[]>;
}

/**
 * What the clients of a load run saw, call by call: every send (with every answer, retries
 * included), every ack attempted and confirmed, and every id a receive returned after that id's
 * ack had been confirmed (which must never happen).
 */
export class Journal {
  readonly sends: SendRecord[] = [];
  readonly ackAttempted = new Set<string>();
  readonly ackConfirmed = new Set<string>();
  readonly returnedAfterAck: string[] = [];

  /** Ids some answer accepted (first send or replay). */
  accepted(): Set<string> {
    const ids = new Set<string>();
    for (const send of this.sends)
      for (const o of send.outcomes) if (o.kind === "ok") ids.add(o.result.message_id as string);
    return ids;
  }

  /** Sends whose last answer left their fate unknown. */
  unresolved(): SendRecord[] {
    return this.sends.filter((s) => s.outcomes.at(-1)?.kind === "unknown");
  }
}

/** A team on the server: an owner with recipient sessions, and sender sessions of other principals. */
export interface LoadWorld {
  readonly teamRef: string;
  readonly owner: string;
  readonly recipients: readonly string[];
  readonly senders: readonly { readonly token: string; readonly session: string }[];
}

let addressCounter = 0;
/** A fresh loopback source address per principal (the mint budget is per address). */
function nextAddress(): string {
  addressCounter = (addressCounter % 250) + 1;
  return `127.0.${Math.floor(process.pid % 200) + 1}.${addressCounter}`;
}

async function mint(base: string): Promise<string> {
  return (await must(base, "POST", "/v1/principals", undefined, undefined, nextAddress()))
    .token as string;
}

async function register(base: string, token: string, teamRef: string, name: string) {
  const result = await must(
    base,
    "POST",
    `/v1/teams/${teamRef}/sessions`,
    token,
    sessionRegistration(name, { lease_seconds: 600 }),
  );
  return result.session_id as string;
}

/**
 * Builds a team through `base`: `recipients` sessions of the owner, and `senderPrincipals` other
 * principals with `sessionsEach` sender sessions each (a session sends at most 20 a minute and a
 * principal 60, so the load is spread to stay under the windows while the inbox caps bind).
 */
export async function buildWorld(
  base: string,
  shape: { recipients: number; senderPrincipals: number; sessionsEach: number },
): Promise<LoadWorld> {
  const owner = await mint(base);
  const team = await must(base, "POST", "/v1/teams", owner, { team_name: "faults" });
  const teamRef = team.team_ref as string;
  const recipients: string[] = [];
  for (let r = 0; r < shape.recipients; r++)
    recipients.push(await register(base, owner, teamRef, `r${r}`));
  const senders: { token: string; session: string }[] = [];
  for (let p = 0; p < shape.senderPrincipals; p++) {
    const token = await mint(base);
    await must(base, "POST", "/v1/teams/join", token, { join_secret: team.join_secret });
    for (let s = 0; s < shape.sessionsEach; s++)
      senders.push({ token, session: await register(base, token, teamRef, `p${p}s${s}`) });
  }
  return { teamRef, owner, recipients, senders };
}

async function sendOnce(base: string, world: LoadWorld, token: string, record: SendRecord) {
  const outcome = await call(base, "POST", `/v1/teams/${world.teamRef}/messages`, token, {
    sender_session_id: record.sender,
    recipient_session_id: record.recipient,
    body: record.body,
    idempotency_key: record.key,
  });
  record.outcomes.push(outcome);
  return outcome;
}

/**
 * The mixed load: every sender sends `perSender` messages round the recipients (each with its own
 * idempotency key), while one loop per recipient receives and acknowledges part of what it finds
 * (and records any acknowledged id a later receive returns). `shouldStop` ends the senders early.
 * Resolves when the senders are done and the ack loops have stopped.
 */
export async function runMixedLoad(
  base: string,
  world: LoadWorld,
  journal: Journal,
  options: { perSender: number; shouldStop?: () => boolean },
): Promise<void> {
  let sending = true;
  const tokenOf = new Map(world.senders.map((s) => [s.session, s.token]));
  const senders = world.senders.map(async ({ session }, s) => {
    for (let i = 0; i < options.perSender && !(options.shouldStop?.() ?? false); i++) {
      const record: SendRecord = {
        sender: session,
        recipient: world.recipients[(s + i) % world.recipients.length] as string,
        key: `load-${s}-${i}`,
        body: `load message ${s}.${i}`,
        outcomes: [],
      };
      journal.sends.push(record);
      await sendOnce(base, world, tokenOf.get(session) as string, record);
    }
  });
  const ackers = world.recipients.map(async (recipient) => {
    const path = `/v1/teams/${world.teamRef}/sessions/${recipient}`;
    while (sending) {
      const confirmedBefore = new Set(journal.ackConfirmed);
      const inbox = await call(base, "GET", `${path}/messages?limit=200`, world.owner);
      if (inbox.kind !== "ok") {
        await sleep(20);
        continue;
      }
      const ids = (inbox.result.messages as { message_id: string }[]).map((m) => m.message_id);
      for (const id of ids) if (confirmedBefore.has(id)) journal.returnedAfterAck.push(id);
      const toAck = ids.slice(0, Math.ceil(ids.length / 2));
      if (toAck.length === 0) {
        await sleep(10);
        continue;
      }
      for (const id of toAck) journal.ackAttempted.add(id);
      const acked = await call(base, "POST", `${path}/ack`, world.owner, { message_ids: toAck });
      if (acked.kind === "ok")
        for (const id of acked.result.acked as string[]) journal.ackConfirmed.add(id);
    }
  });
  await Promise.all(senders);
  sending = false;
  await Promise.all(ackers);
}

/**
 * Sends again, with the same idempotency key, every send whose fate is unknown, until each has a
 * definite answer (the way a client recovers after a failure), for at most `budgetMs`.
 */
export async function resolveUnknown(
  base: string,
  world: LoadWorld,
  journal: Journal,
  budgetMs = 30_000,
): Promise<void> {
  const tokenOf = new Map(world.senders.map((s) => [s.session, s.token]));
  const end = Date.now() + budgetMs;
  while (journal.unresolved().length > 0 && Date.now() < end) {
    await Promise.all(
      journal.unresolved().map((r) => sendOnce(base, world, tokenOf.get(r.sender) as string, r)),
    );
    if (journal.unresolved().length > 0) await sleep(250);
  }
}

/**
 * `16 senders to one recipient`: every sender sends (each send with its own key, an unknown
 * answer retried with the same key) until the recipient's inbox is full or its own quota or
 * window stops it. Nobody acknowledges. Returns the recipient.
 */
export async function runCapRace(
  base: string,
  world: LoadWorld,
  journal: Journal,
): Promise<string> {
  const recipient = world.recipients[0] as string;
  await Promise.all(
    world.senders.map(async ({ token, session }, s) => {
      for (let i = 0; ; i++) {
        const record: SendRecord = {
          sender: session,
          recipient,
          key: `cap-${s}-${i}`,
          body: `cap message ${s}.${i}`,
          outcomes: [],
        };
        journal.sends.push(record);
        let outcome = await sendOnce(base, world, token, record);
        for (let retry = 0; outcome.kind === "unknown" && retry < 40; retry++) {
          await sleep(250);
          outcome = await sendOnce(base, world, token, record);
        }
        if (outcome.kind !== "ok") return;
      }
    }),
  );
  return recipient;
}

/**
 * `copies` concurrent sends of one logical message (same sender session, key and body) for each of
 * `keys` keys; through a round-robin proxy they land on different processes.
 */
export async function runIdempotencyRace(
  base: string,
  world: LoadWorld,
  journal: Journal,
  keys: number,
  copies: number,
): Promise<void> {
  const { token, session } = world.senders[0] as { token: string; session: string };
  for (let k = 0; k < keys; k++) {
    const records = Array.from(
      { length: copies },
      (): SendRecord => ({
        sender: session,
        recipient: world.recipients[0] as string,
        key: `same-${k}`,
        body: `one logical message ${k}`,
        outcomes: [],
      }),
    );
    journal.sends.push(...records);
    await Promise.all(records.map((r) => sendOnce(base, world, token, r)));
  }
}

/** The unacknowledged ids in each recipient's inbox, read through `base`. */
export async function readInboxes(base: string, world: LoadWorld): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const recipient of world.recipients) {
    const inbox = await must(
      base,
      "GET",
      `/v1/teams/${world.teamRef}/sessions/${recipient}/messages?limit=200`,
      world.owner,
    );
    for (const m of inbox.messages as { message_id: string }[]) ids.add(m.message_id);
  }
  return ids;
}

/**
 * The invariants of a run, from the journal, the inboxes read after it and the database. Returns
 * one line per violation (empty when all hold):
 * - no accepted message lost: every accepted id is stored, and still in its inbox unless an ack
 *   for it was attempted;
 * - no acknowledged message returned again, during the run or after;
 * - one message per idempotency key: all accepted answers for one (sender, key) carry one id, the
 *   database holds at most one row per (sender, key), and nothing the clients never had accepted;
 * - with `cap`, the recipient holds exactly `cap.limit` unacknowledged messages.
 */
export async function checkInvariants(
  journal: Journal,
  inboxes: ReadonlySet<string>,
  db: DatabaseView,
  world: LoadWorld,
  cap?: { recipient: string; limit: number },
): Promise<string[]> {
  const violations: string[] = [];
  const stored = await db.messagesFrom(world.senders.map((s) => s.session));
  const storedById = new Map(stored.map((m) => [m.message_id, m]));
  const accepted = journal.accepted();
  for (const id of accepted) {
    if (!storedById.has(id)) violations.push(`accepted message lost from the database: ${id}`);
    else if (!inboxes.has(id) && !journal.ackAttempted.has(id))
      violations.push(`accepted, never acked, missing from its inbox: ${id}`);
  }
  for (const id of journal.ackConfirmed) {
    if (inboxes.has(id)) violations.push(`acknowledged message returned again: ${id}`);
    if (storedById.get(id)?.acked === false)
      violations.push(`acknowledged message unacked in the database: ${id}`);
  }
  for (const id of new Set(journal.returnedAfterAck))
    violations.push(`acknowledged message returned by a later receive: ${id}`);
  const idsByKey = new Map<string, Set<string>>();
  for (const send of journal.sends) {
    for (const o of send.outcomes) {
      if (o.kind !== "ok") continue;
      const k = `${send.sender}/${send.key}`;
      const set = idsByKey.get(k) ?? new Set<string>();
      set.add(o.result.message_id as string);
      idsByKey.set(k, set);
    }
  }
  for (const [k, ids] of idsByKey)
    if (ids.size > 1) violations.push(`one key, several message ids: ${k} → ${[...ids].join(" ")}`);
  const rowsByKey = new Map<string, number>();
  for (const m of stored) {
    if (m.idempotency_key === null) continue;
    const k = `${m.sender_session_id}/${m.idempotency_key}`;
    rowsByKey.set(k, (rowsByKey.get(k) ?? 0) + 1);
    if (!accepted.has(m.message_id) && journal.unresolved().length === 0)
      violations.push(`stored message no client had accepted: ${m.message_id}`);
  }
  for (const [k, n] of rowsByKey) if (n > 1) violations.push(`key stored ${n} times: ${k}`);
  if (cap !== undefined) {
    const unacked = stored.filter((m) => m.recipient_session_id === cap.recipient && !m.acked);
    if (unacked.length !== cap.limit)
      violations.push(`recipient holds ${unacked.length} unacked messages, cap ${cap.limit}`);
  }
  return violations;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
