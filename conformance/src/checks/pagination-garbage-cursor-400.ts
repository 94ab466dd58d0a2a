import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { SkipError } from "../skip.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status } from "../grounding/facts.ts";
import { DATASETS, fixtureDataset, listItemsOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { agentPath, createAgent, TA } from "./support/tracking.ts";
import { askTurn } from "./support/ask.ts";

/** Cursors no deployment issued (the first is base64url of "garbage"). */
const GARBAGE = ["Z2FyYmFnZQ", "not-a-cursor", "eyJpZCI6ICJub3BlIn0", "AAAA"];

/** Which assertion judges the code a list answers: the seed's rows where its endpoint names invalid_cursor. */
type CodeAssertion = "datasetList" | "usageCode" | "agentCode" | "chatCode";

/**
 * A cursor the deployment never issued is refused. Where the seed's row of a
 * list names `invalid_cursor` (usage history, an agent's messages, a chat's
 * messages) the refusal carrying that code is the seed's; its status (400) is
 * D-CURSOR, judged apart. The dataset list's refusal is D-CURSOR as a whole
 * (the seed names no code for it).
 */
export default defineCheck({
  id: "pagination-garbage-cursor-400",
  phase: "lists",
  rule: "A garbage cursor gets 400 with error_code invalid_cursor (error envelope), on the dataset list and on every list whose seed row names invalid_cursor: usage history, a tracking agent's messages, a chat's messages",
  section: "Errors (invalid_cursor); Endpoints › Tracking agents, Ask and chats, Account and prices",
  severity: "major",
  asserts: {
    datasetList: decided("D-CURSOR", status(400), code("invalid_cursor")),
    usageCode: seed("usage-history.invalid-cursor", code("invalid_cursor")),
    agentCode: seed("tracking-agents.messages.invalid-cursor", code("invalid_cursor")),
    chatCode: seed("chats.messages.invalid-cursor", code("invalid_cursor")),
    status400: decided("D-CURSOR", status(400)),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    for (const c of GARBAGE.slice(0, 3)) await garbage(ctx, DATASETS, c, "datasetList");
    // the lists whose rows name `invalid_cursor` (seed › Endpoints): one garbage cursor each
    if (ctx.contract.op("GET /v1/me/usage_history"))
      await garbage(ctx, "/v1/me/usage_history", GARBAGE[0]!, "usageCode");
    if (ctx.contract.op("GET /v1/tracking_agents/{agent_id}/messages")) {
      const agent = await anAgent(ctx);
      if (agent) await garbage(ctx, `${agentPath(agent)}/messages`, GARBAGE[0]!, "agentCode");
    }
    if (ctx.contract.op("GET /v1/chats/{chat_id}/messages") && ctx.contract.op("POST /v1/ask")) {
      if (ctx.settings.profile === "readonly")
        ctx.notExercised("GET /v1/chats/{chat_id}/messages: no chat to page without an assistant turn (readonly)");
      else {
        // the chat comes from an assistant turn (charged): a turn the kit cannot start leaves this list out
        const turn = await askTurn(ctx).catch((e: unknown) => {
          if (!(e instanceof SkipError)) throw e;
          ctx.notExercised(`GET /v1/chats/{chat_id}/messages: no chat (${e.message})`);
          return undefined;
        });
        if (turn?.chatId)
          await garbage(ctx, `/v1/chats/${encodeURIComponent(turn.chatId)}/messages`, GARBAGE[0]!, "chatCode");
        else if (turn)
          ctx.notExercised(`GET /v1/chats/{chat_id}/messages: POST /v1/ask answered ${turn.create.status}`);
      }
    }
  },
});

async function garbage(
  ctx: CheckContext<CodeAssertion | "status400">,
  path: string,
  c: string,
  judges: CodeAssertion,
): Promise<Exchange> {
  const ex = await ctx.req({ method: "GET", path: `${path}?cursor=${encodeURIComponent(c)}` });
  const where = path.replace(/\/(ta|ch)_[^/]+/, "/{id}");
  const expected = { status: 400, body: { status: "client_error", error_code: "invalid_cursor", transient: false } };
  if (judges === "datasetList") {
    ctx.expect(
      ex.status === 400 && errorCode(ex) === "invalid_cursor",
      { judges, title: `${where}: cursor ${JSON.stringify(c)} answered ${ex.status}`, received: seen(ex), expected },
      ex,
    );
    return ex;
  }
  const refused = ctx.expect(
    ex.status >= 400 && ex.status < 500 && errorCode(ex) === "invalid_cursor",
    {
      judges,
      title: `${where}: cursor ${JSON.stringify(c)} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
      received: seen(ex),
      expected: { status: "4xx", error_code: "invalid_cursor" },
    },
    ex,
  );
  if (refused)
    ctx.expect(
      ex.status === 400,
      {
        judges: "status400",
        title: `${where}: invalid_cursor answered with ${ex.status}, not 400`,
        received: ex.status,
        expected,
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
