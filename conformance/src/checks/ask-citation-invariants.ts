import type {
  CommonPostReference,
  MentionsMention,
  TrackingAgentsAgentMessage,
} from "../../../generated/client/types.gen.ts";
import type { Exchange } from "../http.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { isObject, type Untrusted } from "../typed.ts";
import { listItemsOf } from "./support/util.ts";
import { askTurn, requireTurn } from "./support/ask.ts";
import { agentCycles, agentPath } from "./support/tracking.ts";

/** The rules a message's text and references are judged by, each its own finding. */
const RULES = ["numbering", "onePerPost", "slice", "units", "entity", "noTrackingAgent"] as const;

// unknown members, so any value a deployment sent can be looked up
const ENTITY_TYPES: readonly unknown[] = [
  "pattern",
  "research_preview",
  "dataset",
  "audience_dataset",
  "custom_parameter_run",
  "pattern_detection_run",
];

type PostRef = Untrusted<CommonPostReference>;

const isPostRef = (r: unknown): r is PostRef => isObject(r) && r.type === "post";

/**
 * A post reference's citation as the number N of its marker: the seed does
 * not show the field's type, so a number and a string of digits ("1") both
 * read as N; anything else reads as undefined (it names no marker).
 */
export function citationOf(r: PostRef): number | undefined {
  const c: unknown = r.citation;
  if (typeof c === "number" && Number.isInteger(c)) return c;
  if (typeof c === "string" && /^\d+$/.test(c)) return Number(c);
  return undefined;
}

/** The citation numbers of the post references. */
const cited = (refs: unknown[]) => new Set<number | undefined>(refs.filter(isPostRef).map(citationOf));

/**
 * Bracketed numbers of the text that no post reference cites. A conformant
 * server escapes such numbers (`[12\]`, D-CITE-ESCAPE), so each one is either a
 * stray number left unescaped or a marker that lost its reference: the two
 * cannot be told apart, and the decision tolerates them with a warning.
 */
export function strayNumbers(text: string, refs: unknown[]): number[] {
  const c = cited(refs);
  return [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].filter((n) => !c.has(n));
}

/** The rules of the References section one problem breaks (the check's assertion names). */
export type CitationRule = "numbering" | "onePerPost" | "slice" | "units" | "entity" | "noTrackingAgent";

/** Every way one message (text + references) can break the citation rules, each with the rule it breaks; empty when it holds them (stray numbers aside, see strayNumbers). */
export function citationProblems(text: string, refs: unknown[]): Array<{ rule: CitationRule; text: string }> {
  const out: Array<{ rule: CitationRule; text: string }> = [];
  const c = cited(refs);
  const markers = [...text.matchAll(/\[(\d+)\]/g)]
    .map((m) => ({ n: Number(m[1]), at: m.index! }))
    .filter((m) => c.has(m.n));
  const firstAt = new Map<number, number>();
  for (const m of markers) if (!firstAt.has(m.n)) firstAt.set(m.n, m.at);
  const order = [...firstAt.keys()];
  if (order.some((n, i) => n !== i + 1))
    out.push({ rule: "numbering", text: `markers first appear as ${order.join(", ")}, not 1, 2, 3, … in order` });
  const posts = refs.filter(isPostRef);
  const entities = refs.filter((r) => !isPostRef(r));
  const seenPosts = new Set<string>();
  const citations = new Set<number>();
  for (const r of posts) {
    const key = `${r.source}:${r.id}`;
    const n = citationOf(r);
    if (seenPosts.has(key)) out.push({ rule: "onePerPost", text: `post ${key} has two references` });
    seenPosts.add(key);
    if (n === undefined) {
      out.push({
        rule: "numbering",
        text: `post ${key} has citation ${JSON.stringify(r.citation)}, not a marker number N`,
      });
      continue;
    }
    if (citations.has(n)) out.push({ rule: "numbering", text: `citation [${n}] is used by two posts` });
    citations.add(n);
    if (!firstAt.has(n))
      out.push({ rule: "slice", text: `post ${key} has citation ${n} but [${n}] is not in the text` });
    else if (r.start_index !== firstAt.get(n) || text.slice(r.start_index, r.end_index) !== `[${n}]`) {
      // offsets that locate the first marker counted in code points (or bytes) break the unit, D-CITE-UNITS, not the seed's range
      const inPoints =
        typeof r.start_index === "number" &&
        typeof r.end_index === "number" &&
        ([...text].slice(r.start_index, r.end_index).join("") === `[${n}]` ||
          Buffer.from(text).subarray(r.start_index, r.end_index).toString() === `[${n}]`);
      out.push({
        rule: inPoints ? "units" : "slice",
        text: `post ${key}: text.slice(${r.start_index}, ${r.end_index}) is ${JSON.stringify(text.slice(r.start_index, r.end_index))}, not the first [${n}] at ${firstAt.get(n)}${inPoints ? " (offsets in code points or UTF-8 bytes, not UTF-16 code units)" : ""}`,
      });
    }
  }
  for (const e of entities) {
    if (isObject(e) && e.type === "tracking_agent")
      out.push({ rule: "noTrackingAgent", text: `entity reference ${JSON.stringify(e)} has type tracking_agent` });
    else if (!isObject(e) || !ENTITY_TYPES.includes(e.type) || typeof e.id !== "string" || Object.keys(e).length !== 2)
      out.push({
        rule: "entity",
        text: `entity reference ${JSON.stringify(e)} is not {type: ${ENTITY_TYPES.join(" | ")}, id}`,
      });
  }
  return out;
}

/**
 * Citation invariants of assistant and agent messages: [N] numbered by first
 * appearance with reuse, start/end slicing exactly the first [N], one
 * reference per post, every post reference resolvable through post_refs,
 * entity references of the allowed types.
 */
export default defineCheck({
  id: "ask-citation-invariants",
  phase: "groups",
  rule: "In a completed assistant message (and agent alert messages) markers [N] first appear as 1, 2, 3… (a re-cited post reuses its N); each post reference {type: post, source, id, citation, start_index, end_index} is unique per post and text.slice(start, end) is exactly the first [citation]; a bracketed number no post reference cites warns (D-CITE-ESCAPE: strays are escaped as [N\\]); every post reference resolves through POST /v1/mentions post_refs; entity references are {type, id} of the six allowed types (more than 3 warns)",
  section: "Resources › References (assistant and agent messages)",
  severity: "major",
  asserts: {
    numbering: seed(
      "references.marker-numbering",
      words("N counts from 1 in order of first appearance of unique (source, id) pairs"),
      words("Re-citing a post reuses its N"),
    ),
    onePerPost: seed("references.post-one-per-post", words("One per unique (source, id) cited"), field("citation")),
    slice: seed(
      "references.slice",
      words("locating the first `[N]` in the rewritten text"),
      words("slicing the text with them yields exactly that marker"),
    ),
    units: decided("D-CITE-UNITS"),
    entity: seed("references.entity", field("type"), field("id"), words("No inline payload")),
    noTrackingAgent: seed("references.no-tracking-agent", value("tracking_agent")),
    resolves: seed("references.post-resolves", words("resolves through `POST /v1/mentions` with `post_refs`")),
    // a bracketed number no post reference cites: a warning
    escape: decided("D-CITE-ESCAPE"),
    // more than 3 entity references: a warning
    entities: decided("D-ASK-ENTITIES"),
  },
  requires: ["POST /v1/ask", "GET /v1/chats/{chat_id}/messages/{message_id}", "POST /v1/mentions"],
  async run(ctx) {
    const t = await askTurn(ctx);
    requireTurn(ctx, t);
    const messages: Array<{ label: string; text: string; refs: unknown[]; ex: Exchange }> = [];
    if (t.final?.status === "completed" && t.finalEx)
      messages.push({
        label: `assistant message ${t.messageId}`,
        text: t.final.text ?? "",
        refs: t.final.references ?? [],
        ex: t.finalEx,
      });
    else ctx.notExercised(`the assistant turn ended ${t.final?.status}`);
    if (ctx.contract.op("GET /v1/tracking_agents/{agent_id}/messages") && ctx.contract.op("POST /v1/tracking_agents")) {
      const c = await agentCycles(ctx);
      const feed = await ctx.req({ method: "GET", path: `${agentPath(c.agent)}/messages?limit=10` });
      for (const m of listItemsOf<TrackingAgentsAgentMessage>(feed))
        messages.push({
          label: `agent message ${m?.message_id}`,
          text: m?.text ?? "",
          refs: m?.references ?? [],
          ex: feed,
        });
    }
    let cited = 0;
    for (const m of messages) {
      const problems = citationProblems(m.text, m.refs);
      // one finding per rule broken, each attributed to its own sentence
      for (const rule of RULES) {
        const mine = problems.filter((p) => p.rule === rule).map((p) => p.text);
        ctx.expect(
          mine.length === 0,
          {
            judges: rule,
            title: `${m.label}: ${mine[0] ?? ""}${mine.length > 1 ? ` (+${mine.length - 1} more)` : ""}`,
            received: { text: m.text.slice(0, 400), references: m.refs },
            expected: mine,
          },
          m.ex,
        );
      }
      const strays = strayNumbers(m.text, m.refs);
      if (strays.length && ctx.lenient("D-CITE-ESCAPE", m.ex))
        ctx.warn(`${m.label}: ${strays.map((n) => `[${n}]`).join(", ")} in the text without a post reference`);
      const entities = m.refs.filter((r) => !isPostRef(r));
      if (entities.length > 3)
        ctx.warn(`${m.label} carries ${entities.length} entity references (the seed says usually at most 3)`);
      const posts = m.refs.filter(isPostRef);
      cited += posts.length;
      if (posts.length === 0) continue;
      const res = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { post_refs: posts.slice(0, 50).map((r) => ({ source: r.source, id: r.id })), limit: 100 },
      });
      const found = new Set(listItemsOf<MentionsMention>(res).map((x) => `${x?.source}:${x?.id}`));
      const missing = posts
        .slice(0, 50)
        .map((r) => `${r.source}:${r.id}`)
        .filter((k) => !found.has(k));
      ctx.expect(
        res.status === 200 && missing.length === 0,
        {
          judges: "resolves",
          title: `${m.label}: ${missing.length} post reference(s) do not resolve via post_refs`,
          received: missing,
          expected: "every cited post returned by POST /v1/mentions",
        },
        res,
      );
    }
    if (cited === 0)
      ctx.notExercised("no message cited a post: the marker/slice rules were checked on texts without citations");
  },
});
