import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { fixtureDataset, is2xx, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import type { TrackingAgentsTrackingAgent } from "../../../generated/client/types.gen.ts";
import { agentPath, createAgent, TA } from "./support/tracking.ts";

/** An agent id no deployment holds. */
const MISSING = "ta_slkmissing0000000";

/**
 * A deleted agent is hidden from the list (the seed's soft delete) after an
 * empty-body answer; that its own routes then answer 404 not_found, and the
 * 204, are the contract's decisions (the seed hides it "from lists"). The
 * not_found the seed names on each agent route is judged where the seed puts
 * it: an agent id that does not exist.
 */
export default defineCheck({
  id: "tracking-agent-deleted-hidden",
  phase: "groups",
  rule: "DELETE answers an empty body (204, D-TA-DELETE) and GET /v1/tracking_agents no longer lists the agent; GET, PATCH, pause, resume, trigger and messages of the deleted agent answer 404 not_found (D-TA-DELETE); the same routes of an agent id that does not exist answer 404 not_found",
  section:
    "States › Tracking agent lifecycle (deleted: hidden from lists, retained server-side); Endpoints › Tracking agents (not_found)",
  severity: "major",
  asserts: {
    deleted: seed("tracking-agent.delete", words("empty body; soft delete")),
    deleteStatus: decided("D-TA-DELETE", status(204)),
    unlisted: seed(["tracking-agent.delete", "tracking-agents.list"], words("agent and messages hidden from lists")),
    gone: decided("D-TA-DELETE", status(404), code("not_found")),
    unknown: seed(
      [
        "service.scope.foreign-404",
        "tracking-agents.read.404",
        "tracking-agents.update",
        "tracking-agents.pause-resume.empty",
        "tracking-agents.trigger.codes",
        "tracking-agents.messages.not-found",
      ],
      status(404),
      code("not_found"),
      words("one that does not exist, yields 404"),
    ),
  },
  requires: ["POST /v1/tracking_agents", "DELETE /v1/tracking_agents/{agent_id}", "GET /v1/tracking_agents"],
  async run(ctx) {
    const calls = (id: string, name: string): Array<[string, string, unknown?]> => [
      ["GET", agentPath(id)],
      ["PATCH", agentPath(id), { name }],
      ["POST", `${agentPath(id)}/pause`],
      ["POST", `${agentPath(id)}/resume`],
      ["POST", `${agentPath(id)}/trigger`],
      ["GET", `${agentPath(id)}/messages`],
    ];
    // the seed's not_found: every agent route of an id that does not exist
    for (const [method, path, body] of calls(MISSING, ctx.name("agent-missing"))) {
      const ex = await ctx.req({ method, path, body });
      ctx.expect(
        ex.status === 404 && errorCode(ex) === "not_found",
        {
          judges: "unknown",
          title:
            `${method} ${path.replace(MISSING, "{unknown}")} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 404, error_code: "not_found" },
        },
        ex,
      );
    }

    const ds = await fixtureDataset(ctx);
    const agent = await createAgent(ctx, "agent-delete", [ds.id]);
    const del = await ctx.req({ method: "DELETE", path: agentPath(agent.id) });
    if (
      !ctx.expect(
        is2xx(del) && del.text.length === 0,
        {
          judges: "deleted",
          title: `DELETE answered ${del.status} with ${del.text.length ? "a body" : "no body"}`,
          received: seen(del),
          expected: { status: 204, body: "" },
        },
        del,
      )
    )
      return;
    ctx.untrack(agentPath(agent.id));
    ctx.expect(
      del.status === 204,
      { judges: "deleteStatus", title: `DELETE answered ${del.status}`, received: del.status, expected: 204 },
      del,
    );
    for (const [method, path, body] of calls(agent.id, ctx.name("agent-deleted"))) {
      const ex = await ctx.req({ method, path, body });
      ctx.expect(
        ex.status === 404 && errorCode(ex) === "not_found",
        {
          judges: "gone",
          title:
            `${method} ${path.replace(agent.id, "{deleted}")} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 404, error_code: "not_found" },
        },
        ex,
      );
    }
    const w = await walk<TrackingAgentsTrackingAgent>(ctx, TA, { limit: 100, maxPages: 10, bareArray: true });
    if (!w.complete) return ctx.notExercised("the agent list could not be walked to its end");
    ctx.expect(
      !w.items.some((a) => a?.id === agent.id),
      {
        judges: "unlisted",
        title: "the deleted agent is still listed",
        received: w.items.map((a) => a?.id),
        expected: `no ${agent.id}`,
      },
      w.pages.at(-1),
    );
  },
});
