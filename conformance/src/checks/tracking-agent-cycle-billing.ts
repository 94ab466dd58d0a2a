import { decision, defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import type { TrackingAgentsAgentRun } from "../../../generated/client/types.gen.ts";
import { agentCycles, cycleRunUnits } from "./support/tracking.ts";
import { expectAfterStart } from "./support/groups.ts";

/**
 * A cycle reserves count mentions per dataset run it starts and settles to the mentions those runs collected.
 * The balance right after the trigger is judged against the cycle's dataset runs as read around it
 * (expectAfterStart): runs already ended are judged by their settlement or release, the reservation reported
 * not exercised.
 */
export default defineCheck({
  id: "tracking-agent-cycle-billing",
  phase: "groups",
  rule: "A triggered cycle reserves, per dataset run it starts, that run's count (capped at its URLs for a URL search) × the mention price; when its runs end the charge is the mentions they collected × price exactly",
  section: "Limits › Charges (mention: each mention collected by a tracking agent cycle)",
  severity: "critical",
  rules: {
    seed: "mention | 1 | each mention collected by a dataset run or tracking agent cycle",
    decisions: [decision("D-TA-NO-QUERIES", { title: /reserv/ }), decision("D-RUN-COUNT", { title: /count/ })],
  },
  decisions: ["D-TA-NO-QUERIES", "D-RUN-COUNT", "D-REF-RUN-LIFECYCLE"],
  requires: ["POST /v1/tracking_agents/{agent_id}/trigger", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (c.first.status !== 202) return ctx.notExercised(`trigger answered ${c.first.status}`);
    const runs = (dataOf<TrackingAgentsAgentRun>(c.first)?.dataset_run_ids ?? []).length;
    // each started run reserves its count; a URL search caps it at its URLs (D-RUN-COUNT)
    const units = c.firstRuns.reduce((n, r) => n + cycleRunUnits(r), 0);
    const reserved = c.mentionPrice.mul(units);
    // judged against the cycle's dataset runs as read around the balance: a fast cycle may have ended already;
    // its reservation is the decision's (D-TA-NO-QUERIES: "reserved"), what ended runs leave is the seed's charge
    expectAfterStart(ctx, c.afterTrigger, c.before, {
      run: "the cycle's dataset runs",
      title: (seen, debit, states) =>
        seen === "ended"
          ? `a cycle whose dataset runs had ended (${states}) right after the trigger had cost $${debit}`
          : `triggering a cycle of ${runs} dataset run(s) reserved $${debit}`,
      reserved: `${reserved.toFixed()} (${units} mentions × ${c.mentionPrice.toFixed()})`,
      ex: c.first,
    });
    const collected = [...c.firstRuns, ...c.secondRuns].reduce(
      (n, r) => n + (r?.status?.type === "completed" ? (r.mentions_count ?? 0) : 0),
      0,
    );
    const charged = c.before.minus(c.afterSettle);
    ctx.expect(charged.equals(c.mentionPrice.mul(collected)), {
      title: `a cycle that collected ${collected} mentions charged $${charged.toFixed()}`,
      received: charged.toFixed(),
      expected: c.mentionPrice.mul(collected).toFixed(),
    });
  },
});
