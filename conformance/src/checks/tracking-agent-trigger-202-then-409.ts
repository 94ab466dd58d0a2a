import { decision, defineCheck } from "../define-check.ts";
import { bodyOf, dataOf } from "../typed.ts";
import type {
  TrackingAgentsAgentRun,
  TrackingAgentsTrackingAgentRunInProgressError,
} from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { agentCycles } from "./support/tracking.ts";

/** trigger answers 202 with an in_progress agent run; while it runs another trigger is 409; once it is over a trigger is accepted again. */
export default defineCheck({
  id: "tracking-agent-trigger-202-then-409",
  phase: "groups",
  rule: "POST trigger answers 202 with an agent run {id, agent_id, dataset_run_ids, status: {type: in_progress}}; a second trigger while that cycle runs gets 409 tracking_agent_run_in_progress (transient false); after its dataset runs end a trigger is accepted again",
  section:
    "States › Tracking agent lifecycle (trigger); Endpoints › Tracking agents (trigger errors); Limits › Concurrency and caps",
  severity: "major",
  rules: {
    seed: "`tracking_agent_run_in_progress` when a cycle is running",
    decisions: [
      decision("D-409", { title: /second trigger/, status: (s) => s >= 400 && s < 500 && s !== 409 }),
      decision("D-TA-TRIGGER-PAUSED", { title: /paused/ }),
      decision("D-TA-CYCLE", { title: /^the cycle of a one-dataset agent started/ }),
    ],
  },
  decisions: ["D-TAR-STATES", "D-409", "D-ASYNC-202", "D-TA-TRIGGER-PAUSED", "D-TA-CYCLE"],
  requires: ["POST /v1/tracking_agents", "POST /v1/tracking_agents/{agent_id}/trigger"],
  async run(ctx) {
    const c = await agentCycles(ctx);
    const run = dataOf<TrackingAgentsAgentRun>(c.first);
    if (
      !ctx.expect(
        c.first.status === 202 &&
          run?.agent_id === c.agent &&
          run?.status?.type === "in_progress" &&
          Array.isArray(run?.dataset_run_ids),
        {
          title: `trigger answered ${c.first.status}`,
          received: seen(c.first),
          expected: {
            status: 202,
            data: { agent_id: c.agent, dataset_run_ids: ["dsr_…"], status: { type: "in_progress" } },
          },
        },
        c.first,
      )
    )
      return;
    // one dataset run per dataset of the agent (the fixture agent has one) is how the contract runs a cycle
    const started = Array.isArray(run?.dataset_run_ids) ? run.dataset_run_ids.length : 0;
    ctx.expect(
      started === 1,
      {
        title: `the cycle of a one-dataset agent started ${started} dataset runs`,
        received: run?.dataset_run_ids,
        expected: "one dataset run id",
      },
      c.first,
    );
    if (c.second.status === 202 && !c.secondInFlight)
      ctx.notExercised("the first cycle had already ended when the second trigger arrived");
    else if (c.second.status === 202)
      ctx.fail(
        {
          title: "a second trigger during a running cycle was accepted",
          received: seen(c.second),
          expected: { status: 409, error_code: "tracking_agent_run_in_progress" },
        },
        c.second,
      );
    else
      ctx.expect(
        c.second.status === 409 &&
          errorCode(c.second) === "tracking_agent_run_in_progress" &&
          bodyOf<TrackingAgentsTrackingAgentRunInProgressError>(c.second)?.transient === false,
        {
          title: `a second trigger during a running cycle answered ${c.second.status} ${errorCode(c.second) ?? ""}`,
          received: seen(c.second),
          expected: { status: 409, error_code: "tracking_agent_run_in_progress", transient: false },
        },
        c.second,
      );
    ctx.expect(
      c.third?.status === 202,
      {
        title: `a trigger after the cycle ended answered ${c.third?.status}`,
        received: c.third ? seen(c.third) : "(not sent)",
        expected: { status: 202 },
      },
      c.third,
    );
  },
});
