import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, order, words } from "../grounding/facts.ts";
import { sleep, type Exchange } from "../http.ts";
import { bodyOf, isObject, type Untrusted } from "../typed.ts";
import type {
  TrackingAgentsAgentMessage,
  TrackingAgentsAgentMessagePage,
} from "../../../generated/client/types.gen.ts";
import { agentCycles, agentPath } from "./support/tracking.ts";
import { is2xx } from "./support/util.ts";
import type { CheckContext } from "../types.ts";

type Message = Untrusted<TrackingAgentsAgentMessage>;

/** The feed's messages as sent, in place: a non-object item reads as undefined (it fails the shape rule). */
function messagesOf(ex: Exchange): (Message | undefined)[] {
  const data: unknown = bodyOf<TrackingAgentsAgentMessagePage>(ex)?.data;
  return Array.isArray(data) ? data.map((m) => (isObject(m) ? (m as Message) : undefined)) : [];
}

/** `a >= b` as JavaScript compares two values of any type (a deployment may send strings or nulls). */
const atLeast = (a: unknown, b: unknown): boolean => (a as number) >= (b as number);

/**
 * The alert feed lists the agent's messages newest first, each naming its
 * agent, walkable by cursor, and keeps them across pause and resume. That
 * every cycle writes one message (so two cycles give two) and that a feed
 * item carries the full message's text and references[] are the contract's
 * decisions.
 */
export default defineCheck({
  id: "tracking-agent-feed-newest-first",
  phase: "groups",
  rule: "After two finished cycles GET /v1/tracking_agents/{id}/messages lists messages of that agent (agent_id, agent_name) sorted by created_at descending, the same across a limit=1 cursor walk, and the same after pause and resume; at least two of them (D-TA-ALERT-EVERY-CYCLE), each with text and references[] (D-TA-MESSAGE)",
  section:
    "Endpoints › Tracking agents (messages: newest first); Resources › Tracking agent, run, message (agent message)",
  severity: "major",
  asserts: {
    order: seed("tracking-agents.messages.newest-first", order("newest first")),
    fields: seed("agent-message.fields", field("agent_id"), field("agent_name")),
    walk: seed("pagination.cursor-walk", words("Cursor based")),
    history: seed("tracking-agent.resume-keeps-history", words("history retained")),
    everyCycle: decided("D-TA-ALERT-EVERY-CYCLE"),
    full: decided("D-TA-MESSAGE"),
    // the feed takes no order: newest first is the seed's words above, the contract's "always" is this row
    feedOrder: decided("D-TA-MESSAGES-ORDER"),
    // a sentiment_score that is not a number: a warning
    sentiment: decided("D-TA-MESSAGE-SENTIMENT"),
  },
  requires: ["GET /v1/tracking_agents/{agent_id}/messages"],
  // "history retained" across pause and resume is judged on the same feed at the end
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (!c.third || !is2xx(c.first) || !is2xx(c.third)) return ctx.notExercised("fewer than two cycles ran");
    const path = `${agentPath(c.agent)}/messages`;
    let items: (Message | undefined)[] = [];
    let last;
    for (let i = 0; i < 20; i++) {
      last = await ctx.req({ method: "GET", path: `${path}?limit=100` });
      items = messagesOf(last);
      if (items.length >= 2 || last.status !== 200) break;
      await sleep(250);
    }
    if (last!.status !== 200)
      return ctx.notExercised(`the agent's feed answered ${last!.status}: no messages to judge`);
    ctx.expect(
      items.length >= 2,
      {
        judges: "everyCycle",
        title: `the feed holds ${items.length} messages after two cycles`,
        received: items.map((m) => m?.message_id),
        expected: "at least 2 messages",
      },
      last,
    );
    if (items.length === 0) return ctx.notExercised("the agent's feed holds no message to judge");
    if (items.length < 2) ctx.notExercised("the feed holds one message: its order is not exercised");
    else if (new Set(items.map((m) => JSON.stringify(m?.created_at))).size < 2)
      ctx.notExercised("the feed's messages share one created_at: their order is not exercised");
    else
      ctx.expect(
        items.every((m, i) => i === 0 || atLeast(items[i - 1]?.created_at, m?.created_at)),
        {
          judges: "order",
          title: "messages are not newest first",
          received: items.map((m) => m?.created_at),
          expected: "created_at descending",
        },
        last,
      );
    const lacking = [
      ...(items.every((m) => m?.agent_id === c.agent) ? [] : ["agent_id"]),
      ...(items.every((m) => typeof m?.agent_name === "string") ? [] : ["agent_name"]),
    ];
    ctx.expect(
      lacking.length === 0,
      {
        judges: "fields",
        title: `a message lacks ${lacking.join("/")}`,
        received: items[0],
        expected: { agent_id: c.agent, agent_name: "…" },
      },
      last,
    );
    const partial = [
      ...(items.every((m) => typeof m?.text === "string") ? [] : ["text"]),
      ...(items.every((m) => Array.isArray(m?.references)) ? [] : ["references"]),
    ];
    ctx.expect(
      partial.length === 0,
      {
        judges: "full",
        title: `a feed item lacks the full message's ${partial.join("/")}`,
        received: items[0],
        expected: { text: "…", references: [] },
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
    await walkOnePerPage(ctx, path, items);
    await historyAfterResume(ctx, c.agent, items);
  },
});

/**
 * The feed walked one message per page holds the full page's messages in the
 * same order (a message written meanwhile may join it), each once. A walk
 * that reaches its cap while its pages still bring new messages is not
 * exercised; a repeated message or a page that brings none fails.
 */
async function walkOnePerPage(ctx: CheckContext, path: string, items: (Message | undefined)[]): Promise<void> {
  const walked: unknown[] = [];
  let cursor: string | null = null;
  let ended = false;
  let last: Exchange | undefined;
  for (let i = 0; i < items.length + 3; i++) {
    last = await ctx.req({
      method: "GET",
      path: `${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    });
    const ids = messagesOf(last).map((m) => m?.message_id);
    const page = bodyOf<TrackingAgentsAgentMessagePage>(last);
    if (last.status !== 200 || !page) return ctx.notExercised(`a page of the limit=1 walk answered ${last.status}`);
    const fresh = ids.filter((id) => !walked.includes(id));
    walked.push(...ids);
    if (page.has_next !== true) {
      ended = true;
      break;
    }
    if (fresh.length === 0 || typeof page.cursor !== "string" || page.cursor.length === 0) break;
    cursor = page.cursor;
  }
  const wanted: unknown[] = items.map((m) => m?.message_id);
  const repeated = walked.filter((id, i) => walked.indexOf(id) !== i);
  const inOrder = walked.filter((id) => wanted.includes(id));
  if (!ended && repeated.length === 0 && inOrder.length < wanted.length && walked.length >= items.length + 3)
    return ctx.notExercised(
      `the limit=1 walk reached its cap of ${items.length + 3} pages while still bringing messages`,
    );
  ctx.expect(
    repeated.length === 0 && JSON.stringify(inOrder) === JSON.stringify(wanted),
    {
      judges: "walk",
      title: `a limit=1 cursor walk differs from the full page${repeated.length ? ` (repeats ${repeated.length})` : ""}`,
      received: walked,
      expected: wanted,
    },
    last,
  );
}

/** Pausing and resuming the agent keeps its feed: every message listed before is listed after. */
async function historyAfterResume(ctx: CheckContext, agent: string, before: (Message | undefined)[]): Promise<void> {
  const pause = await ctx.req({ method: "POST", path: `${agentPath(agent)}/pause` });
  const resume = await ctx.req({ method: "POST", path: `${agentPath(agent)}/resume` });
  if (pause.status >= 300 || resume.status >= 300)
    return ctx.notExercised(`history across pause/resume: pause ${pause.status}, resume ${resume.status}`);
  const after = await ctx.req({ method: "GET", path: `${agentPath(agent)}/messages?limit=100` });
  const kept = new Set(messagesOf(after).map((m) => m?.message_id));
  const lost = before.map((m) => m?.message_id).filter((id) => !kept.has(id));
  if (after.status !== 200) return ctx.notExercised(`the feed after pause and resume answered ${after.status}`);
  ctx.expect(
    lost.length === 0,
    {
      judges: "history",
      title: `after pause and resume the feed lost ${lost.length} message(s)`,
      received: { status: after.status, lost },
      expected: "every message listed before the pause",
    },
    after,
  );
}
