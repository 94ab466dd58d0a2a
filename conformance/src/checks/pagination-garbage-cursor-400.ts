import type { ActiveCheck } from "../types.ts";
import { DATASETS, isObj, seen } from "./support/util.ts";

/** An unusable cursor is 400 invalid_cursor (decision D-CURSOR). */
const GARBAGE = ["Z2FyYmFnZQ", "not-a-cursor", "eyJpZCI6ICJub3BlIn0", "AAAA"];

const check: ActiveCheck = {
  kind: "active",
  id: "pagination-garbage-cursor-400",
  rule: "A garbage cursor gets 400 with error_code invalid_cursor (error envelope)",
  section: "Errors (invalid_cursor); decision D-CURSOR",
  severity: "major",
  decisions: ["D-CURSOR"],
  profiles: ["readonly", "standard", "full"],
  mock: false,
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    for (const c of GARBAGE.slice(0, 3)) {
      const ex = await ctx.req({ method: "GET", path: `${DATASETS}?cursor=${encodeURIComponent(c)}` });
      ctx.expect(
        ex.status === 400 && isObj(ex.json) && ex.json.error_code === "invalid_cursor",
        {
          title: `pagination-garbage-cursor-400: cursor ${JSON.stringify(c)} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 400, body: { status: "client_error", error_code: "invalid_cursor", transient: false } },
        },
        ex,
      );
    }
  },
};
export default check;
