import type { InboundItem } from "../inbound/index.ts";
import type { DoorContext, DoorStep } from "./delivery-door.ts";

/** An item a door may post: a message (its files received) or a notice. */
export type PostableItem = Exclude<InboundItem, { readonly kind: "files" }>;

/**
 * What {@link takeNextPost} answers: the item to post now with the text the model reads for it
 * (a message's sentinel + frame, a notice's text), or what the door's step did instead.
 */
export type NextPost =
  | { readonly item: PostableItem; readonly content: string }
  | { readonly step: DoorStep };

/**
 * Takes the pipeline's head for a door to post now, the same way for every client: a message
 * never reaches the model before its files do (a `files` head is settled first: `failed` or still
 * waiting is the step's answer), and nothing is taken while the pacer says wait (`paced`). A head
 * whose files went missing between the peek and the take is marked done (`files_missing`) and
 * nothing is posted. The door's own conditions (a post whose fate is unknown, a closed door) are
 * checked by the door before it calls this.
 *
 * @example const next = await takeNextPost(ctx); if ("step" in next) return next.step;
 */
export async function takeNextPost(
  ctx: Pick<DoorContext, "pipeline" | "settleFiles" | "pacer" | "textOf" | "now">,
): Promise<NextPost> {
  const { pipeline, pacer, now } = ctx;
  let head = pipeline.peek();
  if (head?.kind === "files") {
    const settled = await ctx.settleFiles();
    if (settled !== "ready") return { step: settled === "failed" ? "failed" : "nothing" };
    head = pipeline.peek();
  }
  if (head === undefined || head.kind === "files") return { step: "nothing" };
  const content = head.kind === "message" ? ctx.textOf(head) : head.text;
  if (pacer.nextPostAt(now(), content) > now()) return { step: "paced" };
  const item = pipeline.next();
  if (item === undefined) return { step: "nothing" };
  if (item.kind === "files") {
    pipeline.done(item, "files_missing");
    return { step: "nothing" };
  }
  return { item, content };
}
