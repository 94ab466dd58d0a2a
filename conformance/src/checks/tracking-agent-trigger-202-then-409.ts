import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status, words } from "../grounding/facts.ts";
import { bodyOf, dataOf } from "../typed.ts";
import type {
  TrackingAgentsAgentRun,
  TrackingAgentsTrackingAgentRunInProgressError,
} from "../../../generated/client/types.gen.ts";
import { is2xx, seen, setupNotAccepted } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { agentCycles } from "./support/tracking.ts";

/**
 * A trigger starts a cycle whose agent run is created in_progress; while the
 * cycle runs another trigger is refused with tracking_agent_run_in_progress
 * (the seed names the code, not its status: 409 is D-409's). Two triggers
 * are sent together (sendTwins): when one starts a cycle, the other's refusal
 * can only be about it; when both start one, it is a finding only if both
 * cycles still run afterwards; otherwise the rule is not exercised. That
 * a trigger is accepted again once the cycle's runs have ended is how the
 * contract makes a cycle's end observable (D-TAR-OBSERVE).
 */
export default defineCheck({
  id: "tracking-agent-trigger-202-then-409",
  phase: "groups",
  rule: "POST trigger answers an agent run {id, agent_id, dataset_run_ids, status: {type: in_progress}} (202: D-ASYNC-202; one dataset run per dataset: D-TA-CYCLE); of two triggers sent together, the one that arrives while the other's cycle runs is refused with tracking_agent_run_in_progress (409, D-409; a 409 body says transient false); after its dataset runs end a trigger is accepted again (D-TAR-OBSERVE)",
  section:
    "States › Tracking agent lifecycle (trigger); Endpoints › Tracking agents (trigger errors); Limits › Concurrency and caps",
  severity: "major",
  asserts: {
    started: seed(
      ["tracking-agent.trigger", "agent-run.fields", "tracking-agents.trigger"],
      words("agent run created with `in_progress`"),
      field("agent_id"),
      field("dataset_run_ids"),
    ),
    acceptedStatus: decided("D-ASYNC-202", status(202)),
    cycle: decided("D-TA-CYCLE"),
    refused: seed(
      ["limits.tracking-run-in-progress", "tracking-agents.trigger.codes"],
      code("tracking_agent_run_in_progress"),
      words("when a cycle is running"),
    ),
    refusedStatus: decided("D-409", status(409)),
    transient: seed("audience-datasets.runs.409-transient-false", status(409), words("transient false")),
    again: decided("D-TAR-OBSERVE"),
    // the cycles here run on an active agent: a trigger on a paused one is left to the contract (not judged)
    paused: decided("D-TA-TRIGGER-PAUSED"),
  },
  requires: ["POST /v1/tracking_agents", "POST /v1/tracking_agents/{agent_id}/trigger"],
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (!is2xx(c.first)) return setupNotAccepted(ctx, "the agent's first trigger", c.first);
    const run = dataOf<TrackingAgentsAgentRun>(c.first);
    ctx.expect(
      run?.agent_id === c.agent && run?.status?.type === "in_progress" && Array.isArray(run?.dataset_run_ids),
      {
        judges: "started",
        title: `the trigger's agent run is not {agent_id, dataset_run_ids, status: in_progress}`,
        received: seen(c.first),
        expected: { data: { agent_id: c.agent, dataset_run_ids: ["dsr_…"], status: { type: "in_progress" } } },
      },
      c.first,
    );
    ctx.expect(
      c.first.status === 202,
      {
        judges: "acceptedStatus",
        title: `trigger answered ${c.first.status}`,
        received: c.first.status,
        expected: 202,
      },
      c.first,
    );
    // one dataset run per dataset of the agent (the fixture agent has one) is how the contract runs a cycle
    const started = Array.isArray(run?.dataset_run_ids) ? run.dataset_run_ids.length : 0;
    ctx.expect(
      started === 1,
      {
        judges: "cycle",
        title: `the cycle of a one-dataset agent started ${started} dataset runs`,
        received: run?.dataset_run_ids,
        expected: "one dataset run id",
      },
      c.first,
    );
    if (c.twins === "both-running")
      ctx.fail(
        {
          judges: "refused",
          title: "two triggers sent together were both accepted and both cycles read running",
          received: { answers: [c.first.status, c.second.status] },
          expected: { error_code: "tracking_agent_run_in_progress" },
        },
        c.second,
      );
    else if (c.twins === "unknown")
      ctx.notExercised(
        `the twin triggers answered ${c.first.status} and ${c.second.status}: no cycle was shown running when the other arrived`,
      );
    else if (
      ctx.expect(
        errorCode(c.second) === "tracking_agent_run_in_progress",
        {
          judges: "refused",
          title:
            `of two triggers sent together, one started a cycle and the other answered ${c.second.status} ${errorCode(c.second) ?? ""}`.trimEnd(),
          received: seen(c.second),
          expected: { status: "4xx", error_code: "tracking_agent_run_in_progress" },
        },
        c.second,
      )
    ) {
      ctx.expect(
        c.second.status === 409,
        {
          judges: "refusedStatus",
          title: `a trigger during a running cycle was refused with ${c.second.status}`,
          received: c.second.status,
          expected: 409,
        },
        c.second,
      );
      if (c.second.status === 409)
        ctx.expect(
          bodyOf<TrackingAgentsTrackingAgentRunInProgressError>(c.second)?.transient === false,
          {
            judges: "transient",
            title: "the trigger's 409 body does not say transient false",
            received: seen(c.second),
            expected: { transient: false },
          },
          c.second,
        );
    }
    ctx.expect(
      !!c.third && is2xx(c.third),
      {
        judges: "again",
        title: `a trigger after the cycle's runs ended answered ${c.third?.status}`,
        received: c.third ? seen(c.third) : "(not sent)",
        expected: { status: 202 },
      },
      c.third,
    );
  },
});
