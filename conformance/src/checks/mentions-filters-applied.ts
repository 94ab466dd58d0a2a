import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import type { MentionsFilter } from "../../../generated/client/types.gen.ts";
import { filterProbe, filterTypes, type Mention } from "./support/mentions.ts";
import { seen } from "./support/util.ts";
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
 * found (a server that ignores the filter, or answers nothing, fails).
 */
export default defineCheck({
  id: "mentions-filters-applied",
  phase: "lists",
  rule: "A mention search with one filter of any documented type returns only mentions that satisfy it, and not none when the account holds a match",
  section: "Endpoints › Mentions (filters: groups OR-ed, filters AND-ed)",
  severity: "major",
  // the default order only warns; a search without sort answering non-200 breaks the seed (sort is optional)
  rules: { seed: "groups OR-ed, filters within a group AND-ed" },
  // the OR/AND part reads the shared source dataset of the custom parameter checks
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    const sampleEx = await ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: 100 } });
    const sample = mentionsOf(sampleEx);
    if (sampleEx.status !== 200)
      ctx.fail(
        {
          title: `an unfiltered search answered ${sampleEx.status}`,
          received: seen(sampleEx),
          expected: "200",
        },
        sampleEx,
      );
    if (sample.length < 2)
      ctx.skip(`the account holds ${sample.length} mention(s); filters need a sample of at least two`);
    for (const type of filterTypes(ctx.contract)) {
      const probe = filterProbe(type);
      if (!probe) {
        ctx.notExercised(`${type}: needs history the kit cannot build (or no mention field carries it)`);
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
        ctx.notExercised(`${type}: no sampled value splits the sample`);
        continue;
      }
      const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { filters: [[filter]], limit: 100 } });
      const rows = mentionsOf(ex);
      if (
        !ctx.expect(
          ex.status === 200 && rows.length > 0,
          {
            title: `filter ${type} answered ${ex.status} with ${rows.length} mentions though the account holds a match`,
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
          title: `filter ${type} returned a mention that does not satisfy it`,
          received: wrong && { id: wrong.id, source: wrong.source, [type]: wrong[type] ?? "(see mention)" },
          expected: filter,
        },
        ex,
      );
    }
    await groupsCombine(ctx);
  },
});

const key = (m: Mention | undefined) => `${String(m?.source)}:${String(m?.id)}`;

/**
 * Two filters in one group are AND-ed, in two groups OR-ed. On the shared
 * one-run source dataset (small: every answer fits one page) two filters of
 * different types that split its mentions are sent alone, AND-ed and OR-ed:
 * the AND answer is exactly the posts both answered, the OR answer exactly
 * those either answered.
 */
async function groupsCombine(ctx: CheckContext): Promise<void> {
  if (ctx.settings.profile === "readonly" || !ctx.contract.has("POST /v1/datasets/{dataset_id}/runs"))
    return ctx.notExercised("OR/AND of groups: needs the kit's own source dataset (not in the readonly profile)");
  const src = await cpSource(ctx);
  const search = async (filters?: MentionsFilter[][]) => {
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [src.id], limit: 100, ...(filters ? { filters } : {}) },
    });
    return { ex, rows: mentionsOf(ex) };
  };
  const sample = (await search()).rows;
  const picked: MentionsFilter[] = [];
  for (const type of filterTypes(ctx.contract)) {
    const probe = filterProbe(type);
    const f = probe && sample.map((m) => m && probe.make(m)).find((x) => x && sample.some((y) => !probe.holds(x, y)));
    if (f) picked.push(f);
    if (picked.length === 2) break;
  }
  const [a, b] = picked;
  if (!a || !b) return ctx.notExercised("OR/AND of groups: fewer than two filter types split the source dataset");
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
        title: `two filters ${how === "AND" ? "in one group" : "in two groups"} are not ${how}-ed (${got.length} mentions, ${want[how].length} expected)`,
        received: got.slice(0, 20),
        expected: want[how].slice(0, 20),
        message: JSON.stringify(filters),
      },
      ex,
    );
  }
}
