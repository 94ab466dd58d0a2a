import { decision, defineCheck } from "../define-check.ts";
import { createDataset, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";
import { agentPath, createAgent } from "./support/tracking.ts";

/** An agent none of whose datasets has a query to repeat cannot cycle: 400 dataset_has_no_queries, nothing charged. */
export default defineCheck({
  id: "tracking-agent-no-queries-400",
  phase: "groups",
  rule: "Triggering an agent whose only dataset has never run gets 400 dataset_has_no_queries and leaves the balance unchanged",
  section:
    "Endpoints › Tracking agents (trigger: dataset_has_no_queries); States › Tracking agent lifecycle (dataset has queries)",
  severity: "major",
  rules: {
    seed: "`dataset_has_no_queries`",
    decisions: [decision("D-400", { status: (s) => s >= 400 && s < 500 && s !== 400 }), decision("D-TA-NO-QUERIES")],
  },
  decisions: ["D-TA-NO-QUERIES", "D-400"],
  requires: ["POST /v1/tracking_agents", "POST /v1/tracking_agents/{agent_id}/trigger"],
  async run(ctx) {
    const empty = await createDataset(ctx, "agent-empty");
    const agent = await createAgent(ctx, "agent-no-queries", [empty.id]);
    const { balance: before } = await balanceOf(ctx);
    const ex = await ctx.req({ method: "POST", path: `${agentPath(agent.id)}/trigger` });
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      ex.status === 400 && errorCode(ex) === "dataset_has_no_queries",
      {
        title: `triggering an agent without queries answered ${ex.status} ${errorCode(ex) ?? ""}`,
        received: seen(ex),
        expected: { status: 400, error_code: "dataset_has_no_queries" },
      },
      ex,
    );
    ctx.expect(
      after.equals(before),
      {
        title: "a refused trigger changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
