import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

/** An unusable cursor is 400 invalid_cursor (decision D-CURSOR). */
const GARBAGE = ["Z2FyYmFnZQ", "not-a-cursor", "eyJpZCI6ICJub3BlIn0", "AAAA"];

export default defineCheck({
  id: "pagination-garbage-cursor-400",
  phase: "lists",
  rule: "A garbage cursor gets 400 with error_code invalid_cursor (error envelope)",
  section: "Errors (invalid_cursor)",
  severity: "major",
  rules: {
    refusals: true,
    seed: "cursor paginated, account-wide (every seat sees the same feed); error `invalid_cursor`",
    decisions: [decision("D-CURSOR", { status: (s) => s >= 400 && s < 500 && s !== 400 })],
  },
  decisions: ["D-CURSOR"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    for (const c of GARBAGE.slice(0, 3)) {
      const ex = await ctx.req({ method: "GET", path: `${DATASETS}?cursor=${encodeURIComponent(c)}` });
      ctx.expect(
        ex.status === 400 && errorCode(ex) === "invalid_cursor",
        {
          title: `cursor ${JSON.stringify(c)} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 400, body: { status: "client_error", error_code: "invalid_cursor", transient: false } },
        },
        ex,
      );
    }
  },
});
