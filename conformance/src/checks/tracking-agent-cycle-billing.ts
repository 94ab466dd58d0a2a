import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import type { TrackingAgentsAgentRun } from "../../../generated/client/types.gen.ts";
import { agentCycles, cycleRunUnits } from "./support/tracking.ts";
import { countOf, expectAfterStart } from "./support/groups.ts";
import { is2xx, setupNotAccepted } from "./support/util.ts";

/**
 * A cycle is charged the mentions its dataset runs collected (the seed's
 * mention price); what it reserves up front (count mentions per dataset run,
 * capped at a URL search's URLs) is the contract's decision. The balance
 * right after the trigger is judged against the cycle's dataset runs as read
 * around it (expectAfterStart): runs already ended are judged by their
 * settlement, the reservation reported not exercised.
 */
export default defineCheck({
  id: "tracking-agent-cycle-billing",
  phase: "groups",
  rule: "When a triggered cycle's dataset runs have ended the charge is the mentions they collected × the mention price exactly; while they run the cycle holds, per dataset run, that run's count (capped at its URLs for a URL search) × the price (D-TA-NO-QUERIES, D-RUN-COUNT)",
  section: "Limits › Charges (mention: each mention collected by a tracking agent cycle)",
  severity: "critical",
  asserts: {
    settled: seed(
      ["charges.mention", "charges.refund-to-actuals"],
      words("each mention collected by a dataset run or tracking agent cycle"),
      words("on completion unused value is refunded down to actuals"),
    ),
    reserved: decided("D-TA-NO-QUERIES"),
  },
  requires: ["POST /v1/tracking_agents/{agent_id}/trigger", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (!is2xx(c.first)) return setupNotAccepted(ctx, "the agent's first trigger", c.first);
    // the twin first triggers: the window watches the runs of each that started a cycle
    const runs = [c.first, c.second]
      .filter(is2xx)
      .reduce((n, ex) => n + (dataOf<TrackingAgentsAgentRun>(ex)?.dataset_run_ids ?? []).length, 0);
    const units = [...c.firstRuns, ...c.secondRuns].reduce((n, r) => n + cycleRunUnits(r), 0);
    const reserved = c.mentionPrice.mul(units);
    // judged against the cycle's dataset runs as read around the balance: a fast cycle may have ended already
    expectAfterStart(ctx, c.afterTrigger, c.before, {
      run: "the cycle's dataset runs",
      judges: (seen) => (seen === "reserved" ? "reserved" : "settled"),
      title: (seen, debit, states) =>
        seen === "ended"
          ? `a cycle whose dataset runs had ended (${states}) right after the trigger had cost $${debit}`
          : `triggering a cycle of ${runs} dataset run(s) reserved $${debit}`,
      reserved: `${reserved.toFixed()} (${units} mentions × ${c.mentionPrice.toFixed()})`,
      ex: c.first,
    });
    const ended = [...c.firstRuns, ...c.secondRuns];
    const collected = ended.reduce(
      (n, r) => n + (r?.status?.type === "completed" ? (countOf(r.mentions_count) ?? NaN) : 0),
      0,
    );
    if (!Number.isFinite(collected))
      return ctx.notExercised("a completed dataset run of the cycle reports no integer mentions_count");
    const charged = c.before.minus(c.afterSettle);
    ctx.expect(charged.equals(c.mentionPrice.mul(collected)), {
      judges: "settled",
      title: `cycles that collected ${collected} mentions charged $${charged.toFixed()}`,
      received: charged.toFixed(),
      expected: `${c.mentionPrice.mul(collected).toFixed()} (${collected} × ${c.mentionPrice.toFixed()})`,
    });
  },
});
