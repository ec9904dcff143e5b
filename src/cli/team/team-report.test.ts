import { describe, expect, test } from "vitest";
import { BapError, notFoundError, transferOfferExpiredError } from "../../protocol/index.ts";
import type { CliIo } from "../cli-io.ts";
import { reportAdapterError } from "./team-report.ts";

/** The stderr `reportAdapterError` writes for `error` on `team <sub>`, and its exit status. */
function reported(sub: string, error: BapError): [string, number] {
  let stderr = "";
  const io: CliIo = {
    stdin: (async function* () {})(),
    stdout: () => {},
    stderr: (text) => {
      stderr += text;
    },
    env: {},
  };
  const status = reportAdapterError(io, sub, error);
  return [stderr, status];
}

describe("team accept-transfer's refusals", () => {
  test("an expired offer says so and what to do; no offer says it is not offered", () => {
    expect(reported("accept-transfer", new BapError(transferOfferExpiredError()))).toEqual([
      "brigade team accept-transfer: unauthorized (transfer_offer_expired): the offer of this team expired before you accepted it (an offer stands 7 days unless its creator chose less): ask its creator to offer it again\n",
      5,
    ]);
    expect(reported("accept-transfer", new BapError(notFoundError()))).toEqual([
      "brigade team accept-transfer: not_found: the team is not offered to you: its creator offers it with brigade team transfer <member>\n",
      6,
    ]);
  });
});
