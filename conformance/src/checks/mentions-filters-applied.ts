import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import type { MentionsFilter } from "../../../generated/client/types.gen.ts";
import {
  filterProbe,
  filterTypes,
  labelledPool,
  MENTION_POOL,
  mentionsAtLeast,
  type Mention,
} from "./support/mentions.ts";
import { seen, setupNotAccepted } from "./support/util.ts";
import { cpSource } from "./support/custom-parameters.ts";

/** The mentions of a search answer as sent, in place: a non-object item reads as undefined (it matches no filter). */
function mentionsOf(ex: Exchange): (Mention | undefined)[] {
  const data = bodyOf<{ data: unknown[] }>(ex)?.data;
  return Array.isArray(data) ? data.map((m) => (isObject(m) ? (m as Mention) : undefined)) : [];
}

/**
 * Every filter type of the mention search, built from a sampled mention so
 * that the account holds both matching and non-matching posts: each returned
 * mention satisfies the filter, and the match the sample proves exists is
 * found (a server that ignores the filter, or answers nothing, fails). A
 * type no value of the account's mentions splits is tried on the kit's
 * labelled pool (one prompt run over two platforms with the analysis actions,
 * built once per kit run), searched within that dataset.
 */
export default defineCheck({
  id: "mentions-filters-applied",
  phase: "lists",
  rule: "A mention search with one filter of any documented type returns only mentions that satisfy it, and not none when the account holds a match",
  section: "Endpoints › Mentions (filters: groups OR-ed, filters AND-ed)",
  severity: "major",
  asserts: {
    applied: seed("mentions.filters.applied", words("a single filter carries `type` plus the shape below")),
    combined: seed("mentions.filters.or-and", words("groups OR-ed"), words("filters within a group AND-ed")),
  },
  // the OR/AND part reads the shared source dataset of the custom parameter checks, else the labelled pool
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await mentionsAtLeast(ctx, MENTION_POOL);
    // the account's own mentions first; the types they leave unexercised, on the kit's labelled pool
    let left = await singleFilters(ctx, filterTypes(ctx.contract));
    if (left.some((l) => l.retry) && ctx.settings.profile !== "readonly") {
      const pool = await labelledPool(ctx);
      if (pool) {
        const kept = left.filter((l) => !l.retry);
        left = [
          ...kept,
          ...(await singleFilters(
            ctx,
            left.filter((l) => l.retry).map((l) => l.type),
            pool,
          )),
        ];
      }
    }
    for (const l of left) ctx.notExercised(`${l.type}: ${l.why}`);
    await groupsCombine(ctx);
  },
});

/** A filter type left unexercised, why, and whether another sample might exercise it. */
interface Left {
  type: string;
  why: string;
  retry: boolean;
}

/**
 * One search per filter type, built from a sample of the scope (the account,
 * or one dataset): a filter that some sampled mentions match and others do
 * not; the search must find a match and return only matches. Returns the
 * types it could not exercise.
 */
async function singleFilters(ctx: CheckContext<"applied">, types: string[], dataset?: string): Promise<Left[]> {
  const scope = dataset ? { dataset_ids: [dataset] } : {};
  const where = dataset ? "the kit's labelled pool" : "the account";
  const sampleEx = await ctx.req({ method: "POST", path: "/v1/mentions", body: { ...scope, limit: 100 } });
  const sample = mentionsOf(sampleEx);
  if (sampleEx.status !== 200 && !dataset) setupNotAccepted(ctx, "an unfiltered mention search", sampleEx);
  if (sample.length < 2)
    return types.map((type) => ({
      type,
      why: `${where} holds ${sample.length} mention(s), no sample to split`,
      retry: true,
    }));
  const left: Left[] = [];
  for (const type of types) {
    const probe = filterProbe(type);
    if (!probe) {
      left.push({ type, why: "needs history the kit cannot build (or no mention field carries it)", retry: false });
      continue;
    }
    // a filter that some sampled mentions match and others do not
    let filter: MentionsFilter | undefined;
    for (const m of sample) {
      const f = m && probe.make(m);
      if (f && sample.some((x) => !probe.holds(f, x))) {
        filter = f;
        break;
      }
    }
    if (!filter) {
      left.push({ type, why: `no value sampled from ${where} splits it`, retry: true });
      continue;
    }
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { ...scope, filters: [[filter]], limit: 100 },
    });
    const rows = mentionsOf(ex);
    if (
      !ctx.expect(
        ex.status === 200 && rows.length > 0,
        {
          judges: "applied",
          title: `filter ${type} answered ${ex.status} with ${rows.length} mentions though ${where} holds a match`,
          received: seen(ex),
          expected: { status: 200, data: "at least one mention" },
          message: JSON.stringify(filter),
        },
        ex,
      )
    )
      continue;
    const at = rows.findIndex((m) => !probe.holds(filter, m));
    const wrong: Record<string, unknown> | undefined = rows[at];
    ctx.expect(
      at < 0,
      {
        judges: "applied",
        title: `filter ${type} returned a mention that does not satisfy it`,
        received: wrong && { id: wrong.id, source: wrong.source, [type]: wrong[type] ?? "(see mention)" },
        expected: filter,
      },
      ex,
    );
  }
  return left;
}

const key = (m: Mention | undefined) => `${String(m?.source)}:${String(m?.id)}`;

/** Two filters of different types that each split one dataset's mentions (one page: the kit's datasets are small). */
async function twoSplitting(
  ctx: CheckContext,
  dataset: string,
): Promise<{ dataset: string; a: MentionsFilter; b: MentionsFilter } | undefined> {
  const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [dataset], limit: 100 } });
  const sample = mentionsOf(ex);
  const picked: MentionsFilter[] = [];
  for (const type of filterTypes(ctx.contract)) {
    const probe = filterProbe(type);
    const f = probe && sample.map((m) => m && probe.make(m)).find((x) => x && sample.some((y) => !probe.holds(x, y)));
    if (f) picked.push(f);
    if (picked.length === 2) return { dataset, a: picked[0]!, b: picked[1]! };
  }
  return undefined;
}

/**
 * Two filters in one group are AND-ed, in two groups OR-ed. On one of the
 * kit's small datasets (every answer fits one page) two filters of
 * different types that split its mentions are sent alone, AND-ed and OR-ed:
 * the AND answer is exactly the posts both answered, the OR answer exactly
 * those either answered.
 */
async function groupsCombine(ctx: CheckContext<"combined">): Promise<void> {
  if (ctx.settings.profile === "readonly" || !ctx.contract.has("POST /v1/datasets/{dataset_id}/runs"))
    return ctx.notExercised("OR/AND of groups: needs the kit's own source dataset (not in the readonly profile)");
  // the custom parameter checks' small source first (shared), else the kit's labelled pool
  let picked = await twoSplitting(ctx, (await cpSource(ctx)).id);
  if (!picked) {
    const pool = await labelledPool(ctx);
    if (pool) picked = await twoSplitting(ctx, pool);
  }
  if (!picked) return ctx.notExercised("OR/AND of groups: fewer than two filter types split the kit's datasets");
  const { dataset, a, b } = picked;
  const search = async (filters: MentionsFilter[][]) => {
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [dataset], limit: 100, filters },
    });
    return { ex, rows: mentionsOf(ex) };
  };
  const ids = (rows: (Mention | undefined)[]) => new Set(rows.map(key));
  const inA = ids((await search([[a]])).rows);
  const inB = ids((await search([[b]])).rows);
  const want = {
    AND: [...inA].filter((k) => inB.has(k)).sort(),
    OR: [...new Set([...inA, ...inB])].sort(),
  };
  for (const [how, filters] of [
    ["AND", [[a, b]]],
    ["OR", [[a], [b]]],
  ] as const) {
    const { ex, rows } = await search(filters.map((g) => [...g]));
    const got = [...ids(rows)].sort();
    ctx.expect(
      ex.status === 200 && JSON.stringify(got) === JSON.stringify(want[how]),
      {
        judges: "combined",
        title: `two filters ${how === "AND" ? "in one group" : "in two groups"} are not ${how}-ed (${got.length} mentions, ${want[how].length} expected)`,
        received: got.slice(0, 20),
        expected: want[how].slice(0, 20),
        message: JSON.stringify(filters),
      },
      ex,
    );
  }
}
