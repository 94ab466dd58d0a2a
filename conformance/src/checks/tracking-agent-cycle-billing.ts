import { decision, defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import type { TrackingAgentsAgentRun } from "../../../generated/client/types.gen.ts";
import { AGENT_COUNT, agentCycles } from "./support/tracking.ts";

/** A cycle reserves count mentions per dataset run it starts and settles to the mentions those runs collected. */
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
    const units = c.firstRuns.reduce((n, r) => {
      const q = r?.params?.search_query;
      const asked = r?.params?.count;
      const count = typeof asked === "number" && Number.isInteger(asked) ? asked : AGENT_COUNT;
      return n + (q?.type === "url" && Array.isArray(q.source_urls) ? Math.min(count, q.source_urls.length) : count);
    }, 0);
    const reserved = c.mentionPrice.mul(units);
    ctx.expect(
      c.before.minus(c.afterTrigger).equals(reserved),
      {
        title: `triggering a cycle of ${runs} dataset run(s) reserved $${c.before.minus(c.afterTrigger).toFixed()}`,
        received: c.before.minus(c.afterTrigger).toFixed(),
        expected: reserved.toFixed(),
      },
      c.first,
    );
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
