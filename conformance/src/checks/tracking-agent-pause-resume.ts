import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import type { Exchange } from "../http.ts";
import { dataOf, type Untrusted } from "../typed.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, seen } from "./support/util.ts";
import { agentPath, createAgent } from "./support/tracking.ts";

type Agent = Untrusted<TrackingAgentsTrackingAgent>;

/** pause → paused true, next_run_at null; resume → paused false, next_run_at set again; both 204, both idempotent. */
export default defineCheck({
  id: "tracking-agent-pause-resume",
  phase: "groups",
  rule: "A new agent is active (paused false, next_run_at an integer); POST pause answers 204 and the agent reads paused true with next_run_at null; pausing again is 204 and changes nothing; POST resume answers 204 and the agent reads paused false with an integer next_run_at (a next_run_at not after created_at only warns, D-TA-NEXT-RUN)",
  section: "States › Tracking agent lifecycle (active ⇄ paused)",
  severity: "major",
  rules: {
    seed: "`active` | POST pause | agent exists | `paused` (`paused` = true) | no scheduled work",
    decisions: [
      decision("D-TA-NEXT-RUN", {
        title: /^pause .*reads paused true, next_run_at (?!null)|^resume .*reads paused false, next_run_at null/,
      }),
      decision("D-TA-PAUSE", { title: /idempot/ }),
      // `paused` false is the seed's; next_run_at set on an active agent is D-TA-NEXT-RUN's (nullability not stated)
      decision("D-TA-NEXT-RUN", { title: /^a new agent is not active with a next_run_at/, received: /"paused":false/ }),
    ],
  },
  decisions: ["D-TA-PAUSE", "D-TA-NEXT-RUN", "D-EMPTY-204"],
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
    const agentOf = (ex: Exchange) => dataOf<TrackingAgentsTrackingAgent>(ex);
    const active = (d: Agent | undefined) => d?.paused === false && Number.isInteger(d?.next_run_at);
    const paused = (d: Agent | undefined) => d?.paused === true && d?.next_run_at === null;
    // strict (D-TA-NEXT-RUN): the type, null while paused, an integer while active; lenient through the registry: the second it names
    const computed = (ex: Exchange) => {
      const d = agentOf(ex);
      const next = d?.next_run_at;
      const created = d?.created_at;
      if (
        d?.paused === false &&
        typeof next === "number" &&
        Number.isInteger(next) &&
        typeof created === "number" &&
        Number.isInteger(created) &&
        next <= created
      )
        ctx.lenient("D-TA-NEXT-RUN", ex);
    };
    const fresh = await read();
    computed(fresh);
    ctx.expect(
      active(agentOf(fresh)),
      {
        title: "a new agent is not active with a next_run_at",
        received: { paused: agentOf(fresh)?.paused, next_run_at: agentOf(fresh)?.next_run_at },
        expected: { paused: false, next_run_at: "<unix seconds>" },
      },
      fresh,
    );
    const steps: Array<{
      action: "pause" | "resume";
      want: (d: Agent | undefined) => boolean;
      label: string;
      lenient?: boolean;
    }> = [
      { action: "pause", want: paused, label: "after pause" },
      { action: "pause", want: paused, label: "after a second pause", lenient: true },
      { action: "resume", want: active, label: "after resume" },
      { action: "resume", want: active, label: "after a second resume", lenient: true },
    ];
    let before = fresh;
    for (const s of steps) {
      const ex = await ctx.req({ method: "POST", path: `${agentPath(agent.id)}/${s.action}` });
      const after = await read();
      computed(after);
      const ok = ex.status === 204 && ex.text.length === 0 && s.want(agentOf(after));
      if (!ok && s.lenient && ex.status === 204) {
        // a state the first call already left wrong is that call's finding (reported once), not the repeat's
        if (s.want(agentOf(before)))
          ctx.warn(lenientWarning("D-TA-PAUSE", `a repeated ${s.action} changed the agent`), after);
        before = after;
        continue;
      }
      ctx.expect(
        ok,
        {
          title: `${s.action} answered ${ex.status}; ${s.label} the agent reads paused ${agentOf(after)?.paused}, next_run_at ${agentOf(after)?.next_run_at}`,
          received: { status: ex.status, body: ex.text.slice(0, 100), agent: seen(after) },
          expected: {
            status: 204,
            paused: s.action === "pause",
            next_run_at: s.action === "pause" ? null : "<unix seconds>",
          },
        },
        ex,
      );
      before = after;
    }
  },
});
