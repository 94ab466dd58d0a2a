import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, value, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { dataOf, type Untrusted } from "../typed.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, is2xx, seen } from "./support/util.ts";
import { agentPath, createAgent } from "./support/tracking.ts";

type Agent = Untrusted<TrackingAgentsTrackingAgent>;

/**
 * pause → the agent reads `paused` true; resume → false again; both answer an
 * empty body. What the seed's state table leaves open is the contract's:
 * 204 (D-EMPTY-204), next_run_at null while paused and set while active
 * (D-TA-NEXT-RUN), and a repeated pause or resume changing nothing
 * (D-TA-PAUSE: idempotence the table does not state, a warning).
 */
export default defineCheck({
  id: "tracking-agent-pause-resume",
  phase: "groups",
  rule: "POST pause answers an empty body and the agent then reads paused true; POST resume answers an empty body and the agent reads paused false; both 204 (D-EMPTY-204); next_run_at null while paused and an integer while active (D-TA-NEXT-RUN); pausing or resuming twice changes nothing (D-TA-PAUSE, a warning)",
  section:
    "States › Tracking agent lifecycle (active ⇄ paused); Endpoints › Tracking agents (pause, resume: empty body)",
  severity: "major",
  asserts: {
    pause: seed(
      ["tracking-agent.pause", "tracking-agents.pause-resume.empty"],
      words("`paused` = true"),
      words("empty body"),
    ),
    resume: seed(
      ["tracking-agent.resume", "tracking-agents.pause-resume.empty"],
      value("paused"),
      value("active"),
      words("empty body"),
    ),
    emptyStatus: decided("D-EMPTY-204", status(204)),
    nextRun: decided("D-TA-NEXT-RUN"),
    // a repeated pause or resume changing nothing: a warning
    repeat: decided("D-TA-PAUSE"),
  },
  requires: [
    "POST /v1/tracking_agents",
    "POST /v1/tracking_agents/{agent_id}/pause",
    "POST /v1/tracking_agents/{agent_id}/resume",
    "GET /v1/tracking_agents/{agent_id}",
  ],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const agent = await createAgent(ctx, "agent-pause", [ds.id]);
    const read = () => ctx.req({ method: "GET", path: agentPath(agent.id) });
    const agentOf = (ex: Exchange): Agent | undefined => dataOf<TrackingAgentsTrackingAgent>(ex);
    // next_run_at: an integer while active, null while paused (a next_run_at not after created_at only warns)
    const nextRunHolds = (ex: Exchange, paused: boolean) => {
      const d = agentOf(ex);
      const next = d?.next_run_at;
      if (paused) return next === null;
      if (!Number.isInteger(next)) return false;
      if (typeof d?.created_at === "number" && (next as number) <= d.created_at) ctx.lenient("D-TA-NEXT-RUN", ex);
      return true;
    };
    const fresh = await read();
    if (agentOf(fresh)?.paused !== false)
      return ctx.notExercised(
        `a new agent reads paused ${JSON.stringify(agentOf(fresh)?.paused)}: not an active agent to pause`,
      );
    ctx.expect(
      nextRunHolds(fresh, false),
      {
        judges: "nextRun",
        title: `a new active agent reads next_run_at ${JSON.stringify(agentOf(fresh)?.next_run_at)}`,
        received: { next_run_at: agentOf(fresh)?.next_run_at },
        expected: { next_run_at: "<unix seconds>" },
      },
      fresh,
    );
    for (const action of ["pause", "resume"] as const) {
      const paused = action === "pause";
      const ex = await ctx.req({ method: "POST", path: `${agentPath(agent.id)}/${action}` });
      const after = await read();
      const held = ctx.expect(
        is2xx(ex) && ex.text.length === 0 && agentOf(after)?.paused === paused,
        {
          judges: action,
          title: `${action} answered ${ex.status}${ex.text.length ? " with a body" : ""}; the agent then reads paused ${JSON.stringify(agentOf(after)?.paused)}`,
          received: { status: ex.status, body: ex.text.slice(0, 100), agent: seen(after) },
          expected: { status: 204, body: "", paused },
        },
        ex,
      );
      if (!held) return;
      ctx.expect(
        ex.status === 204,
        { judges: "emptyStatus", title: `${action} answered ${ex.status}`, received: ex.status, expected: 204 },
        ex,
      );
      ctx.expect(
        nextRunHolds(after, paused),
        {
          judges: "nextRun",
          title: `after ${action} the agent reads next_run_at ${JSON.stringify(agentOf(after)?.next_run_at)}`,
          received: { paused: agentOf(after)?.paused, next_run_at: agentOf(after)?.next_run_at },
          expected: { next_run_at: paused ? null : "<unix seconds>" },
        },
        after,
      );
      // the same action again: the state table does not say; the contract makes it change nothing (a warning)
      const again = await ctx.req({ method: "POST", path: `${agentPath(agent.id)}/${action}` });
      const still = await read();
      if (!is2xx(again) || agentOf(still)?.paused !== paused)
        ctx.warn(
          lenientWarning(
            "D-TA-PAUSE",
            `a repeated ${action} answered ${again.status} and the agent reads paused ${JSON.stringify(agentOf(still)?.paused)}`,
          ),
          again,
        );
      if (agentOf(still)?.paused !== paused)
        return ctx.notExercised(`after a repeated ${action} the agent is not in the state the next step starts from`);
    }
  },
});
