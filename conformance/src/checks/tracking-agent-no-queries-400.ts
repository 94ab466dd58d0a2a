import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { createDataset, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";
import { agentPath, createAgent } from "./support/tracking.ts";

/**
 * An agent whose only dataset never ran has no query to repeat, so its
 * trigger is refused with dataset_has_no_queries (the seed names the code and
 * the condition, not the status: 400 is D-400's) and nothing is charged.
 */
export default defineCheck({
  id: "tracking-agent-no-queries-400",
  phase: "groups",
  rule: "Triggering an agent whose only dataset has never run is refused with dataset_has_no_queries (400, D-400) and leaves the balance unchanged",
  section:
    "Endpoints › Tracking agents (trigger: dataset_has_no_queries); States › Tracking agent lifecycle (dataset has queries)",
  severity: "major",
  asserts: {
    refused: seed(
      ["tracking-agents.trigger.codes", "tracking-agent.trigger"],
      code("dataset_has_no_queries"),
      words("dataset has queries"),
    ),
    status: decided("D-400", status(400)),
    nothingCharged: seed("errors.never-partially-charged", words("Requests are never partially charged.")),
  },
  requires: ["POST /v1/tracking_agents", "POST /v1/tracking_agents/{agent_id}/trigger"],
  async run(ctx) {
    const empty = await createDataset(ctx, "agent-empty");
    const agent = await createAgent(ctx, "agent-no-queries", [empty.id]);
    const { balance: before } = await balanceOf(ctx);
    const ex = await ctx.req({ method: "POST", path: `${agentPath(agent.id)}/trigger` });
    const { balance: after, ex: me } = await balanceOf(ctx);
    if (
      ctx.expect(
        ex.status >= 400 && ex.status < 500 && errorCode(ex) === "dataset_has_no_queries",
        {
          judges: "refused",
          title: `triggering an agent without queries answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: "4xx", error_code: "dataset_has_no_queries" },
        },
        ex,
      )
    )
      ctx.expect(
        ex.status === 400,
        {
          judges: "status",
          title: `dataset_has_no_queries was answered with ${ex.status}`,
          received: ex.status,
          expected: 400,
        },
        ex,
      );
    ctx.expect(
      after.equals(before),
      {
        judges: "nothingCharged",
        title: "a refused trigger changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
