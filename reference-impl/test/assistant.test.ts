// Ask and chats through app.request() on a ManualClock: 202 at once,
// polling with partial text, citations that resolve, seat privacy, the
// order of checks (nothing created or charged on 404/402/503/504), message
// lists, chat naming, the token charge, new work started by the assistant.
import { beforeEach, describe, expect, it } from "vitest";
import { ASK_CATEGORY, TOKENS_PER_BLOCK } from "../src/domain/assistant/billing.ts";
import { FAULT_PHRASES } from "../src/domain/assistant/service.ts";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const STEP = 300;
const ALLOWED_ENTITIES = [
  "pattern",
  "research_preview",
  "dataset",
  "audience_dataset",
  "custom_parameter_run",
  "pattern_detection_run",
];

async function seeded(t: TestApp): Promise<string> {
  const ds = await createDataset(t, "Oat milk");
  await runToCompletion(
    t,
    ds,
    promptRun("oat milk barista", 60, { content_analysis_actions: ["sentiment", "topics", "mentioned_brands"] }),
  );
  return ds;
}

async function ask(t: TestApp, body: unknown, key = KEYS.aOwner) {
  const res = await t.call("POST", "/v1/ask", { body, key });
  expect(res.status, res.text).toBe(202);
  return res.json.data as { chat_id: string; message_id: string; status: string };
}

function counts(t: TestApp) {
  return {
    chats: t.services.assistant.chats.live("acc_demoA").length,
    messages: t.services.assistant.messages.live("acc_demoA").length,
    balance: t.ledger.balance("acc_demoA").toString(),
  };
}

describe("ask and poll", () => {
  let t: TestApp;
  let ds: string;
  beforeEach(async () => {
    t = makeApp();
    ds = await seeded(t);
  });

  it("answers 202 working at once, then working with growing partial text, then completed with references", async () => {
    const a = await ask(t, {
      message: "What do people say about oat milk froth on TikTok?",
      context: { dataset_ids: [ds] },
    });
    expect(a.status).toBe("working");
    expect(a.chat_id).toMatch(/^ch_/);
    expect(a.message_id).toMatch(/^msg_/);
    const seen: { status: string; text: string; hasRefs: boolean; stop: unknown }[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`);
      expect(p.status).toBe(200);
      seen.push({
        status: p.json.data.status,
        text: p.json.data.text,
        hasRefs: "references" in p.json.data,
        stop: p.json.data.stop_reason,
      });
      await t.clock.advance(STEP);
    }
    const working = seen.filter((s) => s.status === "working");
    expect(working.length).toBeGreaterThanOrEqual(2);
    for (const w of working) expect(w).toMatchObject({ hasRefs: false, stop: null });
    // Each partial text extends the previous one.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.text.startsWith(seen[i - 1]!.text)).toBe(true);
    expect(working.some((w) => w.text.length > 0)).toBe(true);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    expect(final).toMatchObject({ role: "assistant", status: "completed", stop_reason: "end_turn" });
    expect(final.text).toContain("Sentiment");

    const posts = final.references.filter((r: { type: string }) => r.type === "post");
    expect(posts.length).toBeGreaterThan(0);
    posts.forEach((p: { citation: number; start_index: number; end_index: number; source: string }, i: number) => {
      expect(p.citation).toBe(i + 1);
      expect(final.text.slice(p.start_index, p.end_index)).toBe(`[${p.citation}]`);
      expect(final.text.indexOf(`[${p.citation}]`)).toBe(p.start_index);
      expect(p.source).toBe("tiktok"); // the question names TikTok
    });
    expect(final.text).not.toMatch(/\(post:/);
    const resolved = await t.call("POST", "/v1/mentions", {
      body: { post_refs: posts.map((p: { source: string; id: string }) => ({ source: p.source, id: p.id })) },
    });
    expect(resolved.json.data).toHaveLength(posts.length);
    const entities = final.references.filter((r: { type: string }) => r.type !== "post");
    expect(entities.length).toBeLessThanOrEqual(3);
    for (const e of entities) expect(ALLOWED_ENTITIES).toContain(e.type);
    expect(entities).toContainEqual({ type: "dataset", id: ds });
  });

  it("quotes negative posts when the question asks about complaints", async () => {
    const a = await ask(t, { message: "What do people complain about with oat milk?" });
    await t.clock.advance(10 * STEP);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    const heading = final.text.search(/\*\*What the \d+ negative posts say\*\*/);
    expect(heading).toBeGreaterThan(0);
    const quoted = final.references.filter(
      (r: { type: string; start_index: number }) => r.type === "post" && r.start_index > heading,
    );
    expect(quoted.length).toBeGreaterThan(0);
    const found = await t.call("POST", "/v1/mentions", {
      body: { post_refs: quoted.map((p: { source: string; id: string }) => ({ source: p.source, id: p.id })) },
    });
    for (const m of found.json.data) expect(Number(m.sentiment.negative)).toBeGreaterThan(Number(m.sentiment.positive));
  });

  it("charges the turn's tokens after the reply in the post_processing category", async () => {
    const before = t.ledger.balance("acc_demoA");
    const rowsBefore = t.ledger.rows("acc_demoA").length;
    const a = await ask(t, { message: "Summarise the oat milk conversation." });
    expect(t.ledger.balance("acc_demoA").toString()).toBe(before.toString()); // nothing at acceptance
    await t.clock.advance(10 * STEP);
    const reply = t.services.assistant.messages.get("acc_demoA", a.message_id)!;
    expect(reply.status).toBe("completed");
    const rows = t.ledger.rows("acc_demoA").slice(rowsBefore);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.category).toBe(ASK_CATEGORY);
    const blocks = Math.ceil(reply.tokens / TOKENS_PER_BLOCK);
    expect(reply.tokens).toBeGreaterThan(0);
    expect(rows[0]!.amount.toString()).toBe(t.ledger.quote("acc_demoA", "post_processing", blocks).toString());
    expect(before.sub(t.ledger.balance("acc_demoA")).toString()).toBe(rows[0]!.amount.toString());
  });

  it("quotes attached post_refs and says which attached posts it could not find", async () => {
    const some = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [ds], limit: 2 } })).json.data;
    const refs = [
      ...some.map((m: { source: string; id: string }) => ({ source: m.source, id: m.id })),
      { source: "reddit", id: "t3_missing" },
    ];
    const a = await ask(t, { message: "What about these posts?", context: { post_refs: refs } });
    await t.clock.advance(10 * STEP);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    const cited = final.references.filter((r: { type: string }) => r.type === "post").map((r: { id: string }) => r.id);
    for (const m of some) expect(cited).toContain(m.id);
    expect(final.text).toContain("t3_missing");
    const user = (await t.call("GET", `/v1/chats/${a.chat_id}/messages?order=asc`)).json.data[0];
    expect(user).toMatchObject({ role: "user", context: { post_refs: refs } });
  });

  it("starts a research preview when asked, charged at its own price, and references it", async () => {
    const before = t.ledger.rows("acc_demoA").length;
    const a = await ask(t, { message: "Run a research preview for oat milk on reddit and tiktok" });
    await t.clock.advance(10 * STEP);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    const preview = final.references.find((r: { type: string }) => r.type === "research_preview");
    expect(preview).toBeDefined();
    expect((await t.call("GET", `/v1/research_previews/${preview.id}`)).status).toBe(200);
    const categories = t.ledger
      .rows("acc_demoA")
      .slice(before)
      .map((r) => r.category);
    expect(categories).toContain("preview_generation");
    expect(categories).toContain("post_processing");
  });

  it("starts a pattern detection and a fresh dataset run when asked, and references them", async () => {
    const a = await ask(t, {
      message: "Please detect patterns in this dataset and refresh it with a new run",
      context: { dataset_ids: [ds] },
    });
    await t.clock.advance(10 * STEP);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    const pdr = final.references.find((r: { type: string }) => r.type === "pattern_detection_run");
    expect(pdr).toBeDefined();
    expect((await t.call("GET", `/v1/pattern_detections/${pdr.id}`)).status).toBe(200);
    const runs = (await t.call("GET", `/v1/datasets/${ds}/runs`)).json.data;
    expect(runs).toHaveLength(2); // the seeding run and the one the assistant started
    expect(final.text).toContain(runs[0].id);
    expect(final.references.filter((r: { type: string }) => r.type !== "post").length).toBeLessThanOrEqual(3);
  });

  it("reports a refused piece of work in the reply instead of failing the turn", async () => {
    const other = await createDataset(t, "Never run");
    const a = await ask(t, { message: "Refresh this dataset with a new run", context: { dataset_ids: [other] } });
    await t.clock.advance(10 * STEP);
    const final = (await t.call("GET", `/v1/chats/${a.chat_id}/messages/${a.message_id}`)).json.data;
    expect(final.status).toBe("completed");
    expect(final.text).toContain("I could not start the dataset run: the dataset has no query to repeat yet.");
  });

  it("names the chat after its second completed turn", async () => {
    const a = await ask(t, { message: "How do people feel about oat milk froth?" });
    await t.clock.advance(10 * STEP);
    expect((await t.call("GET", `/v1/chats/${a.chat_id}`)).json.data).toMatchObject({
      id: a.chat_id,
      name: null,
      tracking_agent_id: null,
    });
    const b = await ask(t, { message: "And which brands come up?", chat_id: a.chat_id });
    expect(b.chat_id).toBe(a.chat_id);
    await t.clock.advance(10 * STEP);
    const chat = (await t.call("GET", `/v1/chats/${a.chat_id}`)).json.data;
    expect(chat.name).toBe("Feel Oat Milk Froth");
  });

  it("lists messages in both orders with cursors and rejects a bad cursor", async () => {
    const a = await ask(t, { message: "First question about oat milk" });
    await t.clock.advance(10 * STEP);
    await ask(t, { message: "Second question", chat_id: a.chat_id });
    await t.clock.advance(10 * STEP);
    const asc = (await t.call("GET", `/v1/chats/${a.chat_id}/messages?order=asc&limit=100`)).json;
    expect(asc.data.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(asc.data[0].text).toBe("First question about oat milk");
    const desc = (await t.call("GET", `/v1/chats/${a.chat_id}/messages`)).json;
    expect(desc.data.map((m: { id: string }) => m.id)).toEqual(
      [...asc.data].reverse().map((m: { id: string }) => m.id),
    );
    const p1 = (await t.call("GET", `/v1/chats/${a.chat_id}/messages?order=asc&limit=3`)).json;
    expect(p1.has_next).toBe(true);
    const p2 = (await t.call("GET", `/v1/chats/${a.chat_id}/messages?order=asc&limit=3&cursor=${p1.cursor}`)).json;
    expect([...p1.data, ...p2.data].map((m: { id: string }) => m.id)).toEqual(
      asc.data.map((m: { id: string }) => m.id),
    );
    const bad = await t.call("GET", `/v1/chats/${a.chat_id}/messages?order=desc&cursor=${p1.cursor}`);
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe("invalid_cursor");
  });
});

describe("chat privacy and refusals (nothing created or charged)", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = makeApp();
    await seeded(t);
  });

  it("another seat, the other account and unknown ids get 404 chat_not_found everywhere", async () => {
    const a = await ask(t, { message: "oat milk?" }, KEYS.aMember);
    await t.clock.advance(10 * STEP);
    const before = counts(t);
    for (const key of [KEYS.aOwner, KEYS.bOwner]) {
      for (const path of [
        `/v1/chats/${a.chat_id}`,
        `/v1/chats/${a.chat_id}/messages`,
        `/v1/chats/${a.chat_id}/messages/${a.message_id}`,
      ]) {
        const res = await t.call("GET", path, { key });
        expect(res.status, path).toBe(404);
        expect(res.json.error_code).toBe("chat_not_found");
      }
    }
    const foreignAsk = await t.call("POST", "/v1/ask", { body: { message: "continue", chat_id: a.chat_id } });
    expect(foreignAsk.status).toBe(404);
    expect(foreignAsk.json.error_code).toBe("chat_not_found");
    const unknownAsk = await t.call("POST", "/v1/ask", { body: { message: "continue", chat_id: "ch_missing" } });
    expect(unknownAsk.json.error_code).toBe("chat_not_found");
    const unknownMsg = await t.call("GET", `/v1/chats/${a.chat_id}/messages/msg_missing`, { key: KEYS.aMember });
    expect(unknownMsg.status).toBe(404);
    expect(unknownMsg.json.error_code).toBe("chat_not_found");
    expect(counts(t)).toEqual(before);
    expect((await t.call("GET", `/v1/chats/${a.chat_id}`, { key: KEYS.aMember })).status).toBe(200);
  });

  it("422 for an empty message and for more than 50 post_refs", async () => {
    const before = counts(t);
    const empty = await t.call("POST", "/v1/ask", { body: { message: "" } });
    expect(empty.status).toBe(422);
    expect(empty.json.detail[0].loc).toEqual(["body", "message"]);
    const refs = Array.from({ length: 51 }, (_, i) => ({ source: "reddit", id: `p${i}` }));
    const many = await t.call("POST", "/v1/ask", { body: { message: "hi", context: { post_refs: refs } } });
    expect(many.status).toBe(422);
    expect(many.json.detail[0].loc.slice(0, 3)).toEqual(["body", "context", "post_refs"]);
    expect(counts(t)).toEqual(before);
  });

  it("402 insufficient_credits_ask when the balance cannot pay one token block", async () => {
    const block = t.ledger.quote("acc_demoA", "post_processing", 1);
    t.ledger.open("acc_demoA", "pro", block.sub(money("0.000001")));
    const before = counts(t);
    const res = await t.call("POST", "/v1/ask", { body: { message: "Summarise oat milk" } });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error_code: "insufficient_credits_ask", transient: false });
    expect(res.json.detail).toMatchObject({
      required: block.toFixed(6),
      available: block.sub(money("0.000001")).toFixed(6),
    });
    expect(counts(t)).toEqual(before);
    // Exactly one block is enough to start; the charge after the reply never overdraws.
    t.ledger.open("acc_demoA", "pro", block);
    const ok = await ask(t, { message: "Summarise oat milk" });
    await t.clock.advance(10 * STEP);
    expect(t.services.assistant.messages.get("acc_demoA", ok.message_id)!.status).toBe("completed");
    expect(t.ledger.balance("acc_demoA").isNegative()).toBe(false);
  });

  it("magic phrases answer 503 ai_assistant_unavailable and 504 ai_assistant_timeout, transient", async () => {
    const before = counts(t);
    const u = await t.call("POST", "/v1/ask", { body: { message: `hello ${FAULT_PHRASES.unavailable}` } });
    expect(u.status).toBe(503);
    expect(u.json).toMatchObject({ status: "server_error", error_code: "ai_assistant_unavailable", transient: true });
    const to = await t.call("POST", "/v1/ask", { body: { message: `hello ${FAULT_PHRASES.timeout}` } });
    expect(to.status).toBe(504);
    expect(to.json).toMatchObject({ error_code: "ai_assistant_timeout", transient: true });
    expect(counts(t)).toEqual(before);
  });

  it("the ASSISTANT_FAULT setting makes every ask answer the fault", async () => {
    const f = makeApp({ assistantFault: "unavailable" });
    const res = await f.call("POST", "/v1/ask", { body: { message: "anything" } });
    expect(res.status).toBe(503);
    expect(res.json.error_code).toBe("ai_assistant_unavailable");
  });
});

describe("MCP helpers", () => {
  it("waitForMessage resolves when the turn settles, or with the working state on timeout or abort", async () => {
    const t = makeApp();
    await seeded(t);
    const caller = { account: t.directory.account("acc_demoA")!, seat: t.directory.account("acc_demoA")!.seats[0]! };
    const a = t.services.assistant.ask(caller, { message: "oat milk?" });
    const timedOut = t.services.assistant.waitForMessage(caller, a.chat_id, a.message_id, { timeoutMs: 100 });
    await t.clock.advance(100);
    expect((await timedOut).status).toBe("working");
    const controller = new AbortController();
    const aborted = t.services.assistant.waitForMessage(caller, a.chat_id, a.message_id, {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    expect((await aborted).status).toBe("working");
    const settled = t.services.assistant.waitForMessage(caller, a.chat_id, a.message_id, { timeoutMs: 45_000 });
    await t.clock.advance(10 * STEP);
    const view = await settled;
    expect(view.status).toBe("completed");
    const result = t.services.assistant.mcpMessage(a.chat_id, view);
    expect(result.stop_reason).toBe("end_turn");
    const [text, widget] = result.blocks;
    expect(text).toMatchObject({ type: "text", render: false, text: view.text });
    expect(widget).toMatchObject({ type: "openui", render: true });
    expect(widget).not.toHaveProperty("text");
    const rendered = t.services.assistant.renderBlock(caller, a.message_id, widget!.block_id);
    expect(JSON.parse(rendered.content).posts.length).toBeGreaterThan(0);
    expect(() => t.services.assistant.renderBlock(caller, a.message_id, text!.block_id)).toThrow();
    await expect(
      t.services.assistant.waitForMessage(caller, "ch_missing", a.message_id, { timeoutMs: 1 }),
    ).rejects.toThrow();
  });
});
