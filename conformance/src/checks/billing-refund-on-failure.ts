import type { ActiveCheck } from "../types.ts";
import { emptyRun } from "./_billing.ts";

/** A run that collects nothing (failed, or completed empty) leaves the balance where it was. */
const check: ActiveCheck = {
  kind: "active",
  id: "billing-refund-on-failure",
  rule: "A run that fails (or collects nothing) releases its whole reservation: the balance returns to its starting value; a failed status carries error_message",
  section: "States › Dataset run (pending|working → failed: full reservation refunded; error_message set)",
  severity: "critical",
  profiles: ["standard", "full"],
  mock: false,
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const r = await emptyRun(ctx);
    const st = r.final?.status;
    if (st?.type === "failed") ctx.expect(typeof st.error_message === "string" && st.error_message.length > 0, { title: "billing-refund-on-failure: a failed run has no error_message", received: st, expected: { type: "failed", error_message: "<text>" } }, r.observations.at(-1)?.ex);
    const charged = st?.type === "completed" ? r.price.mul(Number(r.final.mentions_count)) : r.price.mul(0);
    const expected = r.before.minus(charged);
    ctx.expect(r.after.equals(expected), { title: `billing-refund-on-failure: balance after a ${st?.type} run with ${r.final?.mentions_count} mentions is not refunded`, received: r.after.toFixed(), expected: expected.toFixed() }, r.meAfter);
  },
};
export default check;
