import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { sleep } from "../http.ts";
import { data } from "./support/util.ts";
import { agentCycles, agentPath } from "./support/tracking.ts";

/** The alert feed lists the agent's messages newest first, one per finished cycle, walkable by cursor. */
export default defineCheck({
  id: "tracking-agent-feed-newest-first",
  phase: "groups",
  rule: "After two finished cycles GET /v1/tracking_agents/{id}/messages lists at least two messages of that agent (agent_id, agent_name), sorted by created_at descending, the same across a limit=1 cursor walk",
  section:
    "Endpoints › Tracking agents (messages: newest first); Resources › Agent message; decisions D-TA-MESSAGES-ORDER, D-TA-MESSAGE, D-TA-MESSAGE-SENTIMENT",
  severity: "major",
  rules: {
    seed: "list of agent message, newest first",
    decisions: [
      decision("D-TA-MESSAGE", { title: /text|references/ }),
      decision("D-TA-MESSAGE-SENTIMENT", { title: /sentiment/ }),
    ],
  },
  decisions: ["D-TA-MESSAGES-ORDER", "D-TA-MESSAGE", "D-TA-MESSAGE-SENTIMENT"],
  requires: ["GET /v1/tracking_agents/{agent_id}/messages"],
  async run(ctx) {
    const c = await agentCycles(ctx);
    if (c.third?.status !== 202) return ctx.notExercised("fewer than two cycles ran");
    const path = `${agentPath(c.agent)}/messages`;
    let items: any[] = [];
    let last;
    for (let i = 0; i < 20; i++) {
      last = await ctx.req({ method: "GET", path: `${path}?limit=100` });
      items = Array.isArray(data(last)) ? data(last) : [];
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
    const sorted = items.every((m, i) => i === 0 || items[i - 1].created_at >= m.created_at);
    ctx.expect(
      sorted,
      {
        title: "messages are not newest first",
        received: items.map((m) => m.created_at),
        expected: "created_at descending",
      },
      last,
    );
    ctx.expect(
      items.every(
        (m) =>
          m?.agent_id === c.agent &&
          typeof m?.agent_name === "string" &&
          typeof m?.text === "string" &&
          Array.isArray(m?.references),
      ),
      {
        title: "a message lacks agent_id/agent_name/text/references",
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
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < items.length + 1; i++) {
      const ex = await ctx.req({
        method: "GET",
        path: `${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      });
      walked.push(...(Array.isArray(data(ex)) ? data(ex).map((m: any) => m?.message_id) : []));
      cursor = (ex.json as any)?.has_next ? (ex.json as any).cursor : null;
      if (!cursor) break;
    }
    ctx.expect(JSON.stringify(walked) === JSON.stringify(items.map((m) => m.message_id)), {
      title: "a limit=1 cursor walk differs from the full page",
      received: walked,
      expected: items.map((m) => m.message_id),
    });
  },
});
