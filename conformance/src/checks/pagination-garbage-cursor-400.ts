import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { SkipError } from "../skip.ts";
import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, fixtureDataset, listItemsOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { agentPath, createAgent, TA } from "./support/tracking.ts";
import { askTurn } from "./support/ask.ts";

/** An unusable cursor is 400 invalid_cursor (decision D-CURSOR). */
const GARBAGE = ["Z2FyYmFnZQ", "not-a-cursor", "eyJpZCI6ICJub3BlIn0", "AAAA"];

export default defineCheck({
  id: "pagination-garbage-cursor-400",
  phase: "lists",
  rule: "A garbage cursor gets 400 with error_code invalid_cursor (error envelope), on the dataset list and on every list whose seed row names invalid_cursor: usage history, a tracking agent's messages, a chat's messages",
  section: "Errors (invalid_cursor); Endpoints › Tracking agents, Ask and chats, Account and prices",
  severity: "major",
  rules: {
    refusals: true,
    seed: "cursor paginated, account-wide (every seat sees the same feed); error `invalid_cursor`",
    decisions: [decision("D-CURSOR", { status: (s) => s >= 400 && s < 500 && s !== 400 })],
  },
  decisions: ["D-CURSOR"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    for (const c of GARBAGE.slice(0, 3)) await garbage(ctx, DATASETS, c);
    // the lists whose rows name `invalid_cursor` (seed › Endpoints): one garbage cursor each
    if (ctx.contract.op("GET /v1/me/usage_history")) await garbage(ctx, "/v1/me/usage_history", GARBAGE[0]!);
    if (ctx.contract.op("GET /v1/tracking_agents/{agent_id}/messages")) {
      const agent = await anAgent(ctx);
      if (agent) await garbage(ctx, `${agentPath(agent)}/messages`, GARBAGE[0]!);
    }
    if (ctx.contract.op("GET /v1/chats/{chat_id}/messages") && ctx.contract.op("POST /v1/ask")) {
      if (ctx.settings.profile === "readonly")
        ctx.notExercised("GET /v1/chats/{chat_id}/messages: no chat to page without an assistant turn (readonly)");
      else {
        const turn = await askTurn(ctx);
        if (turn.chatId) await garbage(ctx, `/v1/chats/${encodeURIComponent(turn.chatId)}/messages`, GARBAGE[0]!);
        else ctx.notExercised(`GET /v1/chats/{chat_id}/messages: POST /v1/ask answered ${turn.create.status}`);
      }
    }
  },
});

async function garbage(ctx: CheckContext, path: string, c: string): Promise<Exchange> {
  const ex = await ctx.req({ method: "GET", path: `${path}?cursor=${encodeURIComponent(c)}` });
  ctx.expect(
    ex.status === 400 && errorCode(ex) === "invalid_cursor",
    {
      title: `${path.replace(/\/(ta|ch)_[^/]+/, "/{id}")}: cursor ${JSON.stringify(c)} answered ${ex.status}`,
      received: seen(ex),
      expected: { status: 400, body: { status: "client_error", error_code: "invalid_cursor", transient: false } },
    },
    ex,
  );
  return ex;
}

/** A tracking agent of the account: the first listed, else one created over the shared dataset (none in readonly). */
async function anAgent(ctx: CheckContext): Promise<string | undefined> {
  const list = await ctx.req({ method: "GET", path: `${TA}?limit=1` });
  const first = listItemsOf<{ id: string }>(list)[0]?.id;
  if (typeof first === "string") return first;
  if (ctx.settings.profile === "readonly") {
    ctx.notExercised("GET /v1/tracking_agents/{agent_id}/messages: the account has no tracking agent (readonly)");
    return undefined;
  }
  try {
    const ds = await fixtureDataset(ctx);
    return (await createAgent(ctx, "cursor-feed", [ds.id])).id;
  } catch (e) {
    if (!(e instanceof SkipError)) throw e;
    ctx.notExercised(`GET /v1/tracking_agents/{agent_id}/messages: no agent (${e.message})`);
    return undefined;
  }
}
