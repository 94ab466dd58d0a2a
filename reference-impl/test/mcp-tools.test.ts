// The fifteen MCP tools through the SDK's own client against the app in
// process: the published catalogue (names, descriptions, annotations,
// schemas), each tool's happy and error path, REST<->MCP agreement on the
// same data for every read tool, read tools never charging, and the
// svc__get_message long poll (timeout, early return, cancellation) on the
// ManualClock.
import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { zMcpToolCatalogue } from "../../generated/client/zod.gen.ts";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";
import { connect, dataOf, rawCall, TOKENS, toolErrorOf } from "./mcp-helpers.ts";

const openapi = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const CONTRACT_NAMES = Object.keys(zMcpToolCatalogue.shape);

/** One account with data behind every read tool, built over REST, then the clock run dry. */
async function world(t: TestApp) {
  const ds = await createDataset(t, "Oat milk");
  await runToCompletion(
    t,
    ds,
    promptRun("oat milk barista", 60, { num_comments_per_post: 3, content_analysis_actions: ["sentiment", "topics"] }),
  );
  const ds2 = await createDataset(t, "Cold brew");
  const run2 = await runToCompletion(t, ds2, promptRun("cold brew coffee", 40));
  const audience = (await t.call("POST", "/v1/audience_datasets", { body: { name: "Oat milk people" } })).json.data
    .id as string;
  const audienceRun = (
    await t.call("POST", `/v1/audience_datasets/${audience}/runs`, {
      body: { source_dataset_id: ds, total_profile_count: 10 },
    })
  ).json.data.id as string;
  const pdr = (
    await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: ds, name: "Why oat milk", research_question: "Why do people switch to oat milk?" },
    })
  ).json.data.run_id as string;
  await t.clock.runAll();
  // Created last: an agent schedules its cycles on the clock for ever.
  const agent = (
    await t.call("POST", "/v1/tracking_agents", {
      body: {
        name: "Oat watch",
        instructions: "Report shifts.",
        dataset_ids: [ds],
        schedule: { frequency: "daily", time: "10:00" },
      },
    })
  ).json.data.id as string;
  return { ds, ds2, run2: run2.id as string, audience, audienceRun, pdr, agent };
}

describe("the published catalogue", () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    t = makeApp();
    client = await connect(t, { key: KEYS.aOwner });
  });

  it("lists the contract's fifteen tools with its descriptions and read-only hints", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([...CONTRACT_NAMES].sort());
    const docs = openapi.components.schemas["Mcp.ToolCatalogue"].properties;
    for (const tool of tools) {
      expect(tool.description).toBe(docs[tool.name].description.replace(/\s*\n\s*/g, " ").trim());
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== "svc__ask");
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  it("publishes the schemas converted from the generated zod (snapshot)", async () => {
    const { tools } = await client.listTools();
    const schemas = Object.fromEntries(
      tools.map((x) => [
        x.name,
        { inputSchema: x.inputSchema, outputSchema: x.outputSchema, annotations: x.annotations },
      ]),
    );
    await expect(JSON.stringify(schemas, null, 2) + "\n").toMatchFileSnapshot("./__snapshots__/mcp-tool-schemas.json");
  });

  it("takes the tool prefix from the server setting", async () => {
    const custom = makeApp({ mcp: { toolPrefix: "acme__" } });
    const c = await connect(custom, { key: KEYS.aOwner });
    const { tools } = await c.listTools();
    expect(tools.every((x) => x.name.startsWith("acme__"))).toBe(true);
    expect(dataOf(await c.callTool({ name: "acme__get_me", arguments: {} })).account_id).toBe("acc_demoA");
    expect(toolErrorOf(await c.callTool({ name: "svc__get_me", arguments: {} }))).toMatchObject({
      code: "not_found",
      status: 404,
    });
  });

  it("answers an unknown tool and bad arguments with a ToolError, not the SDK's -32602 text", async () => {
    expect(toolErrorOf(await client.callTool({ name: "svc__delete_dataset", arguments: {} }))).toMatchObject({
      code: "not_found",
      status: 404,
    });
    const bad = toolErrorOf(await client.callTool({ name: "svc__get_dataset", arguments: { dataset_id: 42 } }));
    expect(bad).toMatchObject({ code: "unprocessable_entity", status: 422 });
    expect(bad.message).toContain("dataset_id");
    expect(bad.message).not.toContain("-32602");
    const limit = toolErrorOf(await client.callTool({ name: "svc__list_datasets", arguments: { limit: 0 } }));
    expect(limit).toMatchObject({ code: "unprocessable_entity", status: 422 });
  });
});

describe("read tools: happy path, error path, agreement with REST", () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof world>>;
  let client: Client;
  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body });
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

  beforeAll(async () => {
    t = makeApp();
    w = await world(t);
    client = await connect(t, { key: KEYS.aOwner });
  });

  it("svc__list_datasets walks the same pages as GET /v1/datasets", async () => {
    const first = dataOf(await call("svc__list_datasets", { limit: 1 }));
    const restFirst = await rest("GET", "/v1/datasets?limit=1");
    expect(first).toEqual({ content: restFirst.data, cursor: restFirst.cursor });
    expect(first.cursor).not.toBeNull();
    const second = dataOf(await call("svc__list_datasets", { limit: 1, cursor: first.cursor }));
    const restSecond = await rest("GET", `/v1/datasets?limit=1&cursor=${first.cursor}`);
    expect(second).toEqual({ content: restSecond.data, cursor: restSecond.cursor });
    expect(second.content[0].id).toBe(w.ds);
    expect(second.cursor).toBeNull();
    expect(toolErrorOf(await call("svc__list_datasets", { cursor: "not-a-cursor!" }))).toMatchObject({
      code: "invalid_cursor",
      status: 400,
    });
  });

  it("svc__get_dataset and svc__get_dataset_run equal their REST twins; unknown ids are the REST 404 codes", async () => {
    expect(dataOf(await call("svc__get_dataset", { dataset_id: w.ds }))).toEqual(
      (await rest("GET", `/v1/datasets/${w.ds}`)).data,
    );
    expect(dataOf(await call("svc__get_dataset_run", { dataset_id: w.ds2, run_id: w.run2 }))).toEqual(
      (await rest("GET", `/v1/datasets/${w.ds2}/runs/${w.run2}`)).data,
    );
    expect(toolErrorOf(await call("svc__get_dataset", { dataset_id: "ds_missing" }))).toMatchObject({
      code: "dataset_not_found",
      status: 404,
    });
    expect(toolErrorOf(await call("svc__get_dataset_run", { dataset_id: w.ds, run_id: w.run2 }))).toMatchObject({
      code: "dataset_not_found",
      status: 404,
    });
  });

  it("another account's dataset is hidden exactly as over REST", async () => {
    const b = await connect(t, { key: KEYS.bOwner });
    const restB = await t.call("GET", `/v1/datasets/${w.ds}`, { key: KEYS.bOwner });
    const err = toolErrorOf(await b.callTool({ name: "svc__get_dataset", arguments: { dataset_id: w.ds } }));
    expect({ code: err.code, status: err.status }).toEqual({ code: restB.json.error_code, status: restB.status });
  });

  it("audience tools equal their REST twins", async () => {
    const list = dataOf(await call("svc__list_audience_datasets"));
    const restList = await rest("GET", "/v1/audience_datasets");
    expect(list).toEqual({ content: restList.data, cursor: restList.cursor });
    expect(dataOf(await call("svc__get_audience_dataset", { audience_dataset_id: w.audience }))).toEqual(
      (await rest("GET", `/v1/audience_datasets/${w.audience}`)).data,
    );
    const run = dataOf(
      await call("svc__get_audience_dataset_run", { audience_dataset_id: w.audience, run_id: w.audienceRun }),
    );
    expect(run).toEqual((await rest("GET", `/v1/audience_datasets/${w.audience}/runs/${w.audienceRun}`)).data);
    expect(run.status.type).toBe("completed");
    expect(toolErrorOf(await call("svc__get_audience_dataset", { audience_dataset_id: "ad_missing" }))).toMatchObject({
      code: "audience_dataset_not_found",
      status: 404,
    });
    expect(
      toolErrorOf(
        await call("svc__get_audience_dataset_run", { audience_dataset_id: w.audience, run_id: "adr_missing" }),
      ).status,
    ).toBe(404);
    expect(toolErrorOf(await call("svc__list_audience_datasets", { cursor: "bad" }))).toMatchObject({
      code: "invalid_cursor",
      status: 400,
    });
  });

  it("svc__list_audience_profiles equals POST /v1/audience_profiles, first page and next", async () => {
    const args = { audience_dataset_ids: [w.audience], sort: "created_at", order: "asc", limit: 3 };
    const page = dataOf(await call("svc__list_audience_profiles", args));
    const restPage = await rest("POST", "/v1/audience_profiles", args);
    expect(page).toEqual({ content: restPage.data, cursor: restPage.cursor });
    expect(page.content.length).toBe(3);
    const next = dataOf(await call("svc__list_audience_profiles", { ...args, cursor: page.cursor }));
    expect(next.content).toEqual((await rest("POST", "/v1/audience_profiles", { ...args, cursor: page.cursor })).data);
    expect(
      toolErrorOf(await call("svc__list_audience_profiles", { audience_dataset_ids: ["ad_missing"] })),
    ).toMatchObject({ code: "audience_dataset_not_found", status: 404 });
  });

  it("svc__list_mentions equals POST /v1/mentions with filters, sort and cursor; group bounds as REST", async () => {
    const args = {
      dataset_ids: [w.ds, w.ds2],
      filters: [[{ type: "source", values: ["reddit", "tiktok"] }]],
      sort: "likes",
      order: "desc",
      limit: 5,
    };
    const page = dataOf(await call("svc__list_mentions", args));
    const restPage = await rest("POST", "/v1/mentions", args);
    expect(page).toEqual({ content: restPage.data, cursor: restPage.cursor });
    expect(page.content.length).toBe(5);
    const next = dataOf(await call("svc__list_mentions", { ...args, cursor: page.cursor }));
    expect(next.content).toEqual((await rest("POST", "/v1/mentions", { ...args, cursor: page.cursor })).data);
    // Defaults: every dataset of the account, 20 per page, as REST.
    expect(dataOf(await call("svc__list_mentions")).content).toEqual((await rest("POST", "/v1/mentions", {})).data);
    expect(toolErrorOf(await call("svc__list_mentions", { dataset_ids: ["ds_missing"] }))).toMatchObject({
      code: "dataset_not_found",
      status: 404,
    });
    expect(toolErrorOf(await call("svc__list_mentions", { filters: [[]] }))).toMatchObject({
      code: "unprocessable_entity",
      status: 422,
    });
    const eleven = Array.from({ length: 11 }, () => [{ type: "source", values: ["reddit"] }]).slice(0, 10);
    eleven[0]!.push({ type: "source", values: ["tiktok"] });
    expect(toolErrorOf(await call("svc__list_mentions", { filters: eleven }))).toMatchObject({
      code: "unprocessable_entity",
      status: 422,
    });
    expect(toolErrorOf(await call("svc__list_mentions", { sort: "date", cursor: page.cursor }))).toMatchObject({
      code: "invalid_cursor",
      status: 400,
    });
  });

  it("svc__get_pattern_detection_run picks run_id, status and pattern_id from the REST run", async () => {
    const run = (await rest("GET", `/v1/pattern_detections/${w.pdr}`)).data;
    expect(run.status.type).toBe("completed");
    expect(dataOf(await call("svc__get_pattern_detection_run", { run_id: w.pdr }))).toEqual({
      run_id: run.run_id,
      status: run.status,
      pattern_id: run.pattern_id,
    });
    expect(toolErrorOf(await call("svc__get_pattern_detection_run", { run_id: "pdr_missing" }))).toMatchObject({
      code: "pattern_detection_run_not_found",
      status: 404,
    });
  });

  it("tracking agent tools equal their REST twins", async () => {
    const list = dataOf(await call("svc__list_tracking_agents"));
    const restList = await rest("GET", "/v1/tracking_agents");
    expect(list).toEqual({ content: restList.data, cursor: restList.cursor });
    expect(dataOf(await call("svc__get_tracking_agent", { agent_id: w.agent }))).toEqual(
      (await rest("GET", `/v1/tracking_agents/${w.agent}`)).data,
    );
    expect(toolErrorOf(await call("svc__get_tracking_agent", { agent_id: "ta_missing" }))).toMatchObject({
      code: "not_found",
      status: 404,
    });
    expect(toolErrorOf(await call("svc__list_tracking_agents", { limit: 101 }))).toMatchObject({
      code: "unprocessable_entity",
      status: 422,
    });
  });

  it("svc__get_me equals GET /v1/me for the calling seat; extra arguments are ignored", async () => {
    expect(dataOf(await call("svc__get_me", { anything: 1 }))).toEqual((await rest("GET", "/v1/me")).data);
    const member = await connect(t, { key: KEYS.aMember });
    const me = dataOf(await member.callTool({ name: "svc__get_me", arguments: {} }));
    expect(me.id).toBe("usr_a_member");
  });

  it("read tools never create or charge", async () => {
    const balance = t.ledger.balance("acc_demoA").toString();
    const usage = (await rest("GET", "/v1/me/usage_history?limit=100")).data.length;
    const datasets = (await rest("GET", "/v1/datasets?limit=100")).data.length;
    for (const name of CONTRACT_NAMES.filter((n) => !["svc__ask", "svc__get_message", "svc__render"].includes(n)))
      await call(name, {});
    await call("svc__get_dataset", { dataset_id: w.ds });
    expect(t.ledger.balance("acc_demoA").toString()).toBe(balance);
    expect((await rest("GET", "/v1/me/usage_history?limit=100")).data.length).toBe(usage);
    expect((await rest("GET", "/v1/datasets?limit=100")).data.length).toBe(datasets);
  });
});

/** Let the in-process request run until the long poll has put its timer on the clock (bounded). */
async function untilPending(t: TestApp, count: number): Promise<void> {
  for (let i = 0; i < 10_000 && t.clock.pending < count; i++) await new Promise((r) => setImmediate(r));
  expect(t.clock.pending).toBeGreaterThanOrEqual(count);
}

describe("the ask flow: svc__ask, svc__get_message, svc__render", () => {
  let t: TestApp;
  let ds: string;
  let client: Client;
  beforeAll(async () => {
    t = makeApp({ mcp: { longPollMs: 1000 } });
    ds = await createDataset(t, "Oat milk");
    await runToCompletion(
      t,
      ds,
      promptRun("oat milk barista", 60, { content_analysis_actions: ["sentiment", "topics", "mentioned_brands"] }),
    );
    client = await connect(t, { key: KEYS.aOwner });
  });

  it("starts a turn like POST /v1/ask and settles it with blocks; render returns the widget", async () => {
    const asked = dataOf(
      await client.callTool({
        name: "svc__ask",
        arguments: { prompt: "What do people say about oat milk froth on TikTok?", dataset_ids: [ds] },
      }),
    );
    expect(asked).toMatchObject({ status: "working" });
    expect(asked.chat_id).toMatch(/^ch_/);
    // The REST twin sees the same turn.
    const polled = await t.call("GET", `/v1/chats/${asked.chat_id}/messages/${asked.message_id}`);
    expect(polled.json.data.status).toBe("working");
    await t.clock.runAll();
    const done = dataOf(
      await client.callTool({
        name: "svc__get_message",
        arguments: { chat_id: asked.chat_id, message_id: asked.message_id },
      }),
    );
    expect(done.status).toBe("completed");
    expect(done.stop_reason).not.toBeNull();
    const textBlock = done.blocks.find((b: any) => !b.render);
    expect(textBlock.text).toBe(
      (await t.call("GET", `/v1/chats/${asked.chat_id}/messages/${asked.message_id}`)).json.data.text,
    );
    const widget = done.blocks.find((b: any) => b.render);
    expect(widget).toBeDefined();
    const rendered = dataOf(
      await client.callTool({
        name: "svc__render",
        arguments: { message_id: asked.message_id, block_id: widget.block_id },
      }),
    );
    expect(rendered.block_id).toBe(widget.block_id);
    expect(typeof rendered.content).toBe("string");
    expect(
      toolErrorOf(
        await client.callTool({
          name: "svc__render",
          arguments: { message_id: asked.message_id, block_id: textBlock.block_id },
        }),
      ),
    ).toMatchObject({ code: "not_found", status: 404 });
  });

  it("ask errors are the REST errors: unknown chat 404, empty prompt 422, spent balance 402 with nothing created", async () => {
    expect(
      toolErrorOf(await client.callTool({ name: "svc__ask", arguments: { prompt: "hi", chat_id: "ch_missing" } })),
    ).toMatchObject({ code: "chat_not_found", status: 404 });
    expect(toolErrorOf(await client.callTool({ name: "svc__ask", arguments: { prompt: "" } }))).toMatchObject({
      code: "unprocessable_entity",
      status: 422,
    });
    const chats = t.services.assistant.chats.live("acc_demoA").length;
    const saved = t.ledger.balance("acc_demoA");
    const block = t.ledger.quote("acc_demoA", "post_processing", 1);
    t.ledger.open("acc_demoA", "pro", block.sub(money("0.000001")));
    try {
      const err = toolErrorOf(await client.callTool({ name: "svc__ask", arguments: { prompt: "Summarise oat milk" } }));
      expect(err).toMatchObject({ code: "insufficient_credits_ask", status: 402 });
      expect(t.services.assistant.chats.live("acc_demoA").length).toBe(chats);
    } finally {
      t.ledger.open("acc_demoA", "pro", saved);
    }
  });

  it("get_message of an unknown message or another seat's chat is chat_not_found", async () => {
    const asked = dataOf(await client.callTool({ name: "svc__ask", arguments: { prompt: "Oat milk froth?" } }));
    await t.clock.runAll();
    expect(
      toolErrorOf(
        await client.callTool({
          name: "svc__get_message",
          arguments: { chat_id: asked.chat_id, message_id: "msg_missing" },
        }),
      ),
    ).toMatchObject({ code: "chat_not_found", status: 404 });
    const member = await connect(t, { key: KEYS.aMember });
    expect(
      toolErrorOf(
        await member.callTool({
          name: "svc__get_message",
          arguments: { chat_id: asked.chat_id, message_id: asked.message_id },
        }),
      ),
    ).toMatchObject({ code: "chat_not_found", status: 404 });
  });

  it("a bearer token acts as the seat that granted it: its chats are that seat's", async () => {
    const viaToken = await connect(t, { bearer: TOKENS.aMember });
    const asked = dataOf(await viaToken.callTool({ name: "svc__ask", arguments: { prompt: "Oat milk in cafés?" } }));
    await t.clock.runAll();
    const memberKey = await t.call("GET", `/v1/chats/${asked.chat_id}`, { key: KEYS.aMember });
    expect(memberKey.status).toBe(200);
    expect((await t.call("GET", `/v1/chats/${asked.chat_id}`, { key: KEYS.aOwner })).status).toBe(404);
  });
});

describe("svc__get_message long poll on the ManualClock", () => {
  const STEP = 300; // makeApp's stepDelayMs: the turn's first write is one step after the ask

  async function started(longPollMs: number) {
    const t = makeApp({ mcp: { longPollMs } });
    const client = await connect(t, { key: KEYS.aOwner });
    const asked = dataOf(
      await client.callTool({ name: "svc__ask", arguments: { prompt: "What do people say about oat milk?" } }),
    );
    return { t, asked };
  }

  it("returns working, stop_reason null and no blocks when the server's wait ends first", async () => {
    const { t, asked } = await started(STEP / 3);
    const before = t.clock.pending;
    const pending = rawCall(
      t,
      "svc__get_message",
      { chat_id: asked.chat_id, message_id: asked.message_id },
      { key: KEYS.aOwner },
    );
    await untilPending(t, before + 1);
    await t.clock.advance(STEP / 3); // the poll's timer fires; the turn's first step (at STEP) does not
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBeUndefined();
    expect(res.json.result.structuredContent).toEqual({
      chat_id: asked.chat_id,
      message_id: asked.message_id,
      status: "working",
      stop_reason: null,
      blocks: [],
    });
    expect(t.clock.pending).toBe(before);
  });

  it("returns as soon as the turn settles, long before the 45 s wait", async () => {
    const { t, asked } = await started(45_000);
    const before = t.clock.pending;
    const startedAt = t.clock.now();
    let settled: any;
    const pending = rawCall(
      t,
      "svc__get_message",
      { chat_id: asked.chat_id, message_id: asked.message_id },
      { key: KEYS.aOwner },
    ).then((r) => (settled = r));
    await untilPending(t, before + 1);
    for (let i = 0; i < 100 && settled === undefined; i++) {
      await t.clock.advance(STEP);
      for (let j = 0; j < 50 && settled === undefined; j++) await new Promise((r) => setImmediate(r));
    }
    await pending;
    expect(settled.json.result.structuredContent.status).toBe("completed");
    expect(settled.json.result.structuredContent.blocks.length).toBeGreaterThan(0);
    expect(t.clock.now() - startedAt).toBeLessThan(45_000);
  });

  it("stops waiting when the client goes away: the poll's timer is cancelled and nothing is answered", async () => {
    const { t, asked } = await started(45_000);
    const before = t.clock.pending;
    const abort = new AbortController();
    const pending = rawCall(
      t,
      "svc__get_message",
      { chat_id: asked.chat_id, message_id: asked.message_id },
      { key: KEYS.aOwner },
      { signal: abort.signal },
    );
    await untilPending(t, before + 1);
    abort.abort();
    const res = await pending;
    expect(res.json?.result).toBeUndefined();
    expect(t.clock.pending).toBe(before);
  });
});
