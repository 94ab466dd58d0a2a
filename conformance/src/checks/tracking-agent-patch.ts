import { decision, defineCheck } from "../define-check.ts";
import { dataOf, type Untrusted } from "../typed.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, seen } from "./support/util.ts";
import { canonical } from "./support/mcp.ts";
import { agentPath, createAgent } from "./support/tracking.ts";

/** PATCH updates the documented fields (schedule replaced whole), an empty body changes nothing, and reads agree. */
export default defineCheck({
  id: "tracking-agent-patch",
  phase: "groups",
  rule: "PATCH /v1/tracking_agents/{id} with {} returns the agent unchanged; with {name, instructions, count, num_comments_per_post, schedule} returns and stores exactly those values (a weekly schedule replaces the daily one whole) and leaves paused untouched",
  section: "Endpoints › Tracking agents (PATCH partial body)",
  severity: "major",
  rules: {
    seed: "PATCH /v1/tracking_agents/{agent_id} | partial body (`name`, `schedule` shown; other fields: not shown)",
    // `name` and `schedule` are the fields the seed shows; the others (and `paused` left alone) are D-TA-PATCH's
    decisions: [
      decision("D-TA-PATCH", {
        title:
          /does not hold the patched (instructions|count|num_comments_per_post|paused)(, (instructions|count|num_comments_per_post|paused))*\s*$/,
      }),
    ],
  },
  decisions: ["D-TA-PATCH"],
  requires: ["POST /v1/tracking_agents", "PATCH /v1/tracking_agents/{agent_id}", "GET /v1/tracking_agents/{agent_id}"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const agent = await createAgent(ctx, "agent-patch", [ds.id]);
    const fresh = dataOf<TrackingAgentsTrackingAgent>(await ctx.req({ method: "GET", path: agentPath(agent.id) }));
    const noop = await ctx.req({ method: "PATCH", path: agentPath(agent.id), body: {} });
    const none: Untrusted<TrackingAgentsTrackingAgent> = {};
    const { updated_at: _u1, next_run_at: _n1, ...a } = dataOf<TrackingAgentsTrackingAgent>(noop) ?? none;
    const { updated_at: _u2, next_run_at: _n2, ...b } = fresh ?? none;
    ctx.expect(
      noop.status === 200 && canonical(a) === canonical(b),
      {
        title: `PATCH {} answered ${noop.status} with a changed agent`,
        received: seen(noop),
        expected: { status: 200, data: fresh },
      },
      noop,
    );
    const change = {
      name: ctx.name("agent-patched"),
      instructions: "Report price complaints about oat milk.",
      count: 30,
      num_comments_per_post: 3,
      schedule: { frequency: "weekly", day: "monday", time: "08:00" },
    };
    const patched = await ctx.req({ method: "PATCH", path: agentPath(agent.id), body: change });
    const read = await ctx.req({ method: "GET", path: agentPath(agent.id) });
    for (const [label, ex] of [
      ["PATCH answer", patched],
      ["read after PATCH", read],
    ] as const) {
      const d = dataOf<TrackingAgentsTrackingAgent>(ex);
      const differ = [
        ...(ex.status === 200 ? [] : [`fields (${ex.status})`]),
        ...(d?.name === change.name ? [] : ["name"]),
        ...(d?.instructions === change.instructions ? [] : ["instructions"]),
        ...(d?.count === change.count ? [] : ["count"]),
        ...(d?.num_comments_per_post === change.num_comments_per_post ? [] : ["num_comments_per_post"]),
        ...(canonical(d?.schedule) === canonical(change.schedule) ? [] : ["schedule"]),
        ...(d?.paused === fresh?.paused ? [] : ["paused"]),
      ];
      ctx.expect(
        differ.length === 0,
        {
          title: `the ${label} does not hold the patched ${differ.join(", ")}`,
          received: seen(ex),
          expected: { ...change, paused: fresh?.paused },
        },
        ex,
      );
    }
  },
});
