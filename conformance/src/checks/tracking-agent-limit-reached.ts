import type { AccountMe, TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import { errorCode } from "./support/groups.ts";
import { agentPath, AGENT_COUNT, createAgent, TA } from "./support/tracking.ts";
import { fixtureDataset, is2xx, seen, walk } from "./support/util.ts";

/** The most agents the check creates to reach the plan's cap (free, but each costs two requests; a larger headroom is not exercised). */
const MAX_CREATES = 30;

/**
 * Creating a tracking agent past the plan's `plan.limits.tracking_agents` is
 * refused with tracking_agent_limit_reached. The seed names no status for the
 * code: 409 is D-409's, judged on its own, so a deployment that answers the
 * seed's code with another status breaks only the decision.
 */
export default defineCheck({
  id: "tracking-agent-limit-reached",
  phase: "groups",
  // last of the agent checks: while it holds the account at its cap, no other agent can be created
  after: ["tracking-agent-*"],
  rule: "With as many live tracking agents as GET /v1/me's plan.limits.tracking_agents, one more POST /v1/tracking_agents is refused with error_code tracking_agent_limit_reached (status 409, D-409); the agents the check created are deleted afterwards",
  section: "Endpoints › Tracking agents (POST errors); Limits (Plan limits)",
  severity: "major",
  asserts: {
    refused: seed(
      ["tracking-agents.create.limit-reached", "limits.plan-limits"],
      code("tracking_agent_limit_reached"),
      field("tracking_agents"),
    ),
    status: decided("D-409", status(409)),
  },
  requires: [
    "GET /v1/me",
    "GET /v1/tracking_agents",
    "POST /v1/tracking_agents",
    "DELETE /v1/tracking_agents/{agent_id}",
  ],
  async run(ctx) {
    const me = await ctx.req({ method: "GET", path: "/v1/me" });
    const plan = dataOf<AccountMe>(me)?.plan;
    const cap = isObject(plan?.limits) ? plan.limits.tracking_agents : undefined;
    if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0)
      return ctx.skip(
        `not exercised: GET /v1/me shows no integer plan.limits.tracking_agents (${JSON.stringify(cap)})`,
      );
    const listed = await walk<TrackingAgentsTrackingAgent>(ctx, TA, { limit: 100, maxPages: 10 });
    if (!listed.complete)
      ctx.skip("not exercised: the account's tracking agents could not be counted (list incomplete)");
    const live = new Set(listed.items.map((a) => a?.id).filter((id): id is string => typeof id === "string")).size;
    const needed = cap - live;
    if (needed > MAX_CREATES)
      ctx.skip(`not exercised: reaching the plan's cap of ${cap} agents (${live} live) needs ${needed} creations`);

    const created: string[] = [];
    const ds = await fixtureDataset(ctx);
    try {
      for (let i = 0; i < needed; i++) created.push((await createAgent(ctx, `agent-cap-${i}`, [ds.id])).id);
      ctx.mutates("tracking agent agent-cap-over");
      const over = await ctx.req({
        method: "POST",
        path: TA,
        body: {
          name: ctx.name("agent-cap-over"),
          instructions: "Flag shifts in sentiment about oat milk latte art.",
          dataset_ids: [ds.id],
          count: AGENT_COUNT,
          num_comments_per_post: 0,
          schedule: { frequency: "daily", time: "09:00" },
        },
      });
      const id = dataOf<TrackingAgentsTrackingAgent>(over)?.id;
      if (is2xx(over) && typeof id === "string") {
        ctx.track("tracking agent", agentPath(id));
        created.push(id);
      }
      const answered = errorCode(over);
      const refused = ctx.expect(
        over.status >= 400 && over.status < 500 && answered === "tracking_agent_limit_reached",
        {
          judges: "refused",
          title: `the create past the plan's cap answered ${over.status} ${answered ?? ""}`.trimEnd(),
          received: { plan_limit: cap, live_before: live, created: needed, answer: seen(over) },
          expected: { status: "4xx", error_code: "tracking_agent_limit_reached" },
        },
        over,
      );
      if (refused)
        ctx.expect(
          over.status === 409,
          {
            judges: "status",
            title: `the plan's cap was refused with ${over.status}, not 409`,
            received: over.status,
            expected: 409,
          },
          over,
        );
    } finally {
      // free the plan's slots at once: later checks (other phases) create agents too
      for (const id of created) {
        const del = await ctx.req({ method: "DELETE", path: agentPath(id) });
        if (is2xx(del)) ctx.untrack(agentPath(id));
      }
    }
  },
});
