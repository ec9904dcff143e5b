import type { ConformanceCase } from "../case.ts";
import { ADMIN_CASES } from "./admin.ts";
import { ATTACHMENT_CASES } from "./attachments.ts";
import { INVITATION_CASES } from "./invitations.ts";
import { LIFECYCLE_CASES } from "./lifecycle.ts";
import { LIVE_DELIVERY_CASES } from "./live-delivery.ts";
import { MESSAGE_CASES } from "./messages.ts";
import { METADATA_CASES } from "./metadata.ts";
import { PERSON_CASES } from "./person.ts";
import { PROFILE_AND_TEAM_CASES } from "./profile-and-team.ts";
import { SESSION_CASES } from "./sessions.ts";
import { STATE_CASES } from "./states.ts";
import { TRANSFER_OFFER_CASES } from "./transfer-offer.ts";
import { WATCH_CASES } from "./watch.ts";

/**
 * All 49 cases of docs/spec/protocol.md §12.5 in id order (C-01…C-47 plus C-03b, C-19b, C-29b;
 * there is no C-09), then our `team.admin` cases C-48…C-50, our message-state cases C-51,
 * C-52, our live-delivery cases C-53, C-54 (slow), our team-lifecycle cases C-55 to C-58, our
 * attachment cases C-60 to C-67, our invitation and label cases C-80…C-87, the lane cases C-88
 * and C-89, our cases of a person's messages C-90…C-94, and our transfer-offer case C-95.
 *
 * @example ALL_CASES.length === 84
 */
export const ALL_CASES: readonly ConformanceCase[] = [
  ...PROFILE_AND_TEAM_CASES,
  ...SESSION_CASES,
  ...MESSAGE_CASES,
  ...WATCH_CASES,
  ...METADATA_CASES,
  ...ADMIN_CASES,
  ...STATE_CASES,
  ...LIVE_DELIVERY_CASES,
  ...LIFECYCLE_CASES,
  ...ATTACHMENT_CASES,
  ...INVITATION_CASES,
  ...PERSON_CASES,
  ...TRANSFER_OFFER_CASES,
];
