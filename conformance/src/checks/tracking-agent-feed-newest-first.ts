import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { sleep, type Exchange } from "../http.ts";
import { bodyOf, isObject, type Untrusted } from "../typed.ts";
import type {
  TrackingAgentsAgentMessage,
  TrackingAgentsAgentMessagePage,
} from "../../../generated/client/types.gen.ts";
import { agentCycles, agentPath } from "./support/tracking.ts";
import type { CheckContext } from "../types.ts";

type Message = Untrusted<TrackingAgentsAgentMessage>;

/** The feed's messages as sent, in place: a non-object item reads as undefined (it fails the shape rule). */
function messagesOf(ex: Exchange): (Message | undefined)[] {
  const data: unknown = bodyOf<TrackingAgentsAgentMessagePage>(ex)?.data;
  return Array.isArray(data) ? data.map((m) => (isObject(m) ? (m as Message) : undefined)) : [];
}

/** `a >= b` as JavaScript compares two values of any type (a deployment may send strings or nulls). */
const atLeast = (a: unknown, b: unknown): boolean => (a as number) >= (b as number);

/** The alert feed lists the agent's messages newest first, one per finished cycle, walkable by cursor. */
export default defineCheck({
  id: "tracking-agent-feed-newest-first",
  phase: "groups",
  rule: "After two finished cycles GET /v1/tracking_agents/{id}/messages lists at least two messages of that agent (agent_id, agent_name), sorted by created_at descending, the same across a limit=1 cursor walk",
  section:
    "Endpoints › Tracking agents (messages: newest first); Resources › Tracking agent, run, message (agent message)",
  severity: "major",
  rules: {
    seed: "list of agent message, newest first",
    decisions: [
      // agent_id and agent_name are the seed's feed fields; text and references[] on a feed item are the contract's
      decision("D-TA-MESSAGE", { title: /^a message lacks (text|references)(\/(text|references))?\s*$/ }),
      decision("D-TA-MESSAGE-SENTIMENT", { title: /sentiment/ }),
      // the seed says agents "emit alert messages", not one per cycle
      decision("D-TA-ALERT-EVERY-CYCLE", {
        title: /^the feed holds \d+ messages after two cycles/,
        status: (s) => s === 200,
      }),
    ],
  },
  decisions: ["D-TA-MESSAGES-ORDER", "D-TA-MESSAGE", "D-TA-MESSAGE-SENTIMENT", "D-TA-ALERT-EVERY-CYCLE"],
  requires: ["GET /v1/tracking_agents/{agent_id}/messages"],
  // "history retained" across pause and resume is judged on the same feed at the end
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (c.third?.status !== 202) return ctx.notExercised("fewer than two cycles ran");
    const path = `${agentPath(c.agent)}/messages`;
    let items: (Message | undefined)[] = [];
    let last;
    for (let i = 0; i < 20; i++) {
      last = await ctx.req({ method: "GET", path: `${path}?limit=100` });
      items = messagesOf(last);
      if (items.length >= 2 || last.status !== 200) break;
      await sleep(250);
    }
    if (
      !ctx.expect(
        last!.status === 200 && items.length >= 2,
        {
          title: `the feed holds ${items.length} messages after two cycles`,
          received: items.map((m) => m?.message_id),
          expected: "at least 2 messages",
        },
        last,
      )
    )
      return;
    const sorted = items.every((m, i) => i === 0 || atLeast(items[i - 1]?.created_at, m?.created_at));
    ctx.expect(
      sorted,
      {
        title: "messages are not newest first",
        received: items.map((m) => m?.created_at),
        expected: "created_at descending",
      },
      last,
    );
    const lacking = [
      ...(items.every((m) => m?.agent_id === c.agent) ? [] : ["agent_id"]),
      ...(items.every((m) => typeof m?.agent_name === "string") ? [] : ["agent_name"]),
      ...(items.every((m) => typeof m?.text === "string") ? [] : ["text"]),
      ...(items.every((m) => Array.isArray(m?.references)) ? [] : ["references"]),
    ];
    ctx.expect(
      lacking.length === 0,
      {
        title: `a message lacks ${lacking.join("/")}`,
        received: items[0],
        expected: { agent_id: c.agent, agent_name: "…", text: "…", references: [] },
      },
      last,
    );
    for (const m of items)
      if (typeof m?.sentiment_score !== "number")
        ctx.warn(
          lenientWarning(
            "D-TA-MESSAGE-SENTIMENT",
            `message ${m?.message_id}: sentiment_score ${JSON.stringify(m?.sentiment_score)}`,
          ),
          last,
        );
    const walked: unknown[] = [];
    let cursor: string | null | undefined = null;
    for (let i = 0; i < items.length + 1; i++) {
      const ex = await ctx.req({
        method: "GET",
        path: `${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      });
      walked.push(...messagesOf(ex).map((m) => m?.message_id));
      const page = bodyOf<TrackingAgentsAgentMessagePage>(ex);
      cursor = page?.has_next ? page.cursor : null;
      if (!cursor) break;
    }
    ctx.expect(JSON.stringify(walked) === JSON.stringify(items.map((m) => m?.message_id)), {
      title: "a limit=1 cursor walk differs from the full page",
      received: walked,
      expected: items.map((m) => m?.message_id),
    });
    await historyAfterResume(ctx, c.agent, items);
  },
});

/** Pausing and resuming the agent keeps its feed: every message listed before is listed after. */
async function historyAfterResume(ctx: CheckContext, agent: string, before: (Message | undefined)[]): Promise<void> {
  const pause = await ctx.req({ method: "POST", path: `${agentPath(agent)}/pause` });
  const resume = await ctx.req({ method: "POST", path: `${agentPath(agent)}/resume` });
  if (pause.status >= 300 || resume.status >= 300)
    return ctx.notExercised(`history across pause/resume: pause ${pause.status}, resume ${resume.status}`);
  const after = await ctx.req({ method: "GET", path: `${agentPath(agent)}/messages?limit=100` });
  const kept = new Set(messagesOf(after).map((m) => m?.message_id));
  const lost = before.map((m) => m?.message_id).filter((id) => !kept.has(id));
  ctx.expect(
    after.status === 200 && lost.length === 0,
    {
      title: `after pause and resume the feed lost ${lost.length} message(s)`,
      received: { status: after.status, lost },
      expected: "every message listed before the pause",
    },
    after,
  );
}
