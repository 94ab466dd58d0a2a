import { decision, defineCheck } from "../define-check.ts";
import { fixtureDataset, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { agentPath, createAgent, TA } from "./support/tracking.ts";

/** A deleted agent is 204 then hidden: 404 on read, pause, trigger and messages, absent from the list. */
export default defineCheck({
  id: "tracking-agent-deleted-hidden",
  phase: "groups",
  rule: "DELETE answers 204; afterwards GET, PATCH, pause, resume, trigger and messages of the agent answer 404 not_found and GET /v1/tracking_agents no longer lists it",
  section: "States › Tracking agent lifecycle (deleted: hidden from lists, retained server-side)",
  severity: "major",
  rules: {
    seed: "soft delete: agent and messages hidden from lists, retained server-side",
    decisions: [
      decision("D-TA-DELETE", { title: /later read|404/ }),
      decision("D-TA-CREATE-404", { title: /unknown dataset/ }),
    ],
  },
  decisions: ["D-TA-DELETE", "D-TA-CREATE-404", "D-TA-LIST"],
  requires: ["POST /v1/tracking_agents", "DELETE /v1/tracking_agents/{agent_id}", "GET /v1/tracking_agents"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const agent = await createAgent(ctx, "agent-delete", [ds.id]);
    const del = await ctx.req({ method: "DELETE", path: agentPath(agent.id) });
    if (
      !ctx.expect(
        del.status === 204,
        {
          title: `DELETE answered ${del.status}`,
          received: seen(del),
          expected: { status: 204 },
        },
        del,
      )
    )
      return;
    ctx.untrack(agentPath(agent.id));
    const calls: Array<[string, string, unknown?]> = [
      ["GET", agentPath(agent.id)],
      ["PATCH", agentPath(agent.id), { name: ctx.name("agent-deleted") }],
      ["POST", `${agentPath(agent.id)}/pause`],
      ["POST", `${agentPath(agent.id)}/resume`],
      ["POST", `${agentPath(agent.id)}/trigger`],
      ["GET", `${agentPath(agent.id)}/messages`],
    ];
    for (const [method, path, body] of calls) {
      const ex = await ctx.req({ method, path, body });
      ctx.expect(
        ex.status === 404 && errorCode(ex) === "not_found",
        {
          title: `${method} ${path.replace(agent.id, "{deleted}")} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 404, error_code: "not_found" },
        },
        ex,
      );
    }
    const w = await walk<TrackingAgentsTrackingAgent>(ctx, TA, { limit: 100, maxPages: 10 });
    ctx.expect(
      w.complete && !w.items.some((a) => a?.id === agent.id),
      {
        title: "the deleted agent is still listed",
        received: w.items.map((a) => a?.id),
        expected: `no ${agent.id}`,
      },
      w.pages.at(-1),
    );
  },
});
