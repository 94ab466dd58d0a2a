import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { dataOf, isObject, type Untrusted } from "../typed.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, is2xx, seen } from "./support/util.ts";
import { canonical } from "./support/mcp.ts";
import { agentPath, createAgent } from "./support/tracking.ts";
import type { CheckContext } from "../types.ts";

type Agent = Untrusted<TrackingAgentsTrackingAgent>;

/** The schedule's own fields as sent (a deployment may add others beside them). */
const scheduleOf = (d: Agent | undefined) => {
  const s: unknown = d?.schedule;
  if (!isObject(s)) return undefined;
  return { frequency: s.frequency, day: s.day, time: s.time };
};

/**
 * PATCH is a partial update: an empty body changes nothing, and the fields
 * the seed shows (`name`, `schedule`, a weekly schedule replacing a daily
 * one) are stored and returned. The other fields (instructions, count,
 * num_comments_per_post), sent in a PATCH of their own, and `paused` left
 * alone are the contract's (D-TA-PATCH).
 */
export default defineCheck({
  id: "tracking-agent-patch",
  phase: "groups",
  rule: "PATCH /v1/tracking_agents/{id} with {} returns the agent unchanged; with {name, schedule} returns and stores exactly those (a weekly schedule {frequency, day, time} replaces the daily one); with {instructions, count, num_comments_per_post} returns and stores those and leaves paused untouched (D-TA-PATCH)",
  section: "Endpoints › Tracking agents (PATCH partial body); Resources › Tracking agent (schedule)",
  severity: "major",
  asserts: {
    noop: seed("tracking-agents.update", words("partial body")),
    shown: seed(
      ["tracking-agents.update", "tracking-agent.schedule"],
      words("partial body"),
      field("name"),
      field("schedule"),
      words("weekly (with lowercase weekday name in day and time)"),
    ),
    others: decided("D-TA-PATCH"),
  },
  requires: ["POST /v1/tracking_agents", "PATCH /v1/tracking_agents/{agent_id}", "GET /v1/tracking_agents/{agent_id}"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const agent = await createAgent(ctx, "agent-patch", [ds.id]);
    const path = agentPath(agent.id);
    const fresh = dataOf<TrackingAgentsTrackingAgent>(await ctx.req({ method: "GET", path }));
    const noop = await ctx.req({ method: "PATCH", path, body: {} });
    const none: Agent = {};
    const { updated_at: _u1, next_run_at: _n1, ...a } = dataOf<TrackingAgentsTrackingAgent>(noop) ?? none;
    const { updated_at: _u2, next_run_at: _n2, ...b } = fresh ?? none;
    ctx.expect(
      is2xx(noop) && canonical(a) === canonical(b),
      {
        judges: "noop",
        title: `PATCH {} answered ${noop.status} with a changed agent`,
        received: seen(noop),
        expected: { status: 200, data: fresh },
      },
      noop,
    );
    const shown = { name: ctx.name("agent-patched"), schedule: { frequency: "weekly", day: "monday", time: "08:00" } };
    await patchHolds(ctx, path, shown, "shown", (d) => ({
      ...(d?.name === shown.name ? {} : { name: d?.name }),
      ...(canonical(scheduleOf(d)) === canonical(shown.schedule) ? {} : { schedule: d?.schedule }),
    }));
    const others = { instructions: "Report price complaints about oat milk.", count: 30, num_comments_per_post: 3 };
    await patchHolds(ctx, path, others, "others", (d) => ({
      ...(d?.instructions === others.instructions ? {} : { instructions: d?.instructions }),
      ...(d?.count === others.count ? {} : { count: d?.count }),
      ...(d?.num_comments_per_post === others.num_comments_per_post
        ? {}
        : { num_comments_per_post: d?.num_comments_per_post }),
      ...(d?.paused === fresh?.paused ? {} : { paused: d?.paused }),
    }));
  },
});

/** PATCH `change`; the answer and a read after it both hold it (`differ` names what does not). */
async function patchHolds(
  ctx: CheckContext,
  path: string,
  change: Record<string, unknown>,
  judges: "shown" | "others",
  differ: (d: Agent | undefined) => Record<string, unknown>,
): Promise<void> {
  const patched = await ctx.req({ method: "PATCH", path, body: change });
  const read = await ctx.req({ method: "GET", path });
  for (const [label, ex] of [
    ["PATCH answer", patched],
    ["read after PATCH", read],
  ] as const) {
    const wrong = is2xx(ex) ? differ(dataOf<TrackingAgentsTrackingAgent>(ex)) : { status: ex.status };
    ctx.expect(
      Object.keys(wrong).length === 0,
      {
        judges,
        title: `the ${label} does not hold the patched ${Object.keys(wrong).join(", ")}`,
        received: seen(ex),
        expected: change,
      },
      ex,
    );
  }
}
