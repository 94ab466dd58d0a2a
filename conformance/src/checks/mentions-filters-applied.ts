import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { MentionsFilter } from "../../../generated/client/types.gen.ts";
import { filterProbe, filterTypes, type Mention } from "./support/mentions.ts";
import { seen } from "./support/util.ts";

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
  },
});
