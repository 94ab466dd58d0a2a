import { defineCheck } from "../define-check.ts";
import { FILTER_PROBES, filterTypes } from "./support/mentions.ts";
import { isObj, seen } from "./support/util.ts";

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
    const sample: any[] = isObj(sampleEx.json) && Array.isArray(sampleEx.json.data) ? sampleEx.json.data : [];
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
      const probe = FILTER_PROBES[type];
      if (!probe) {
        ctx.notExercised(`${type}: needs history the kit cannot build (or no mention field carries it)`);
        continue;
      }
      // a filter that some sampled mentions match and others do not
      let filter: any;
      for (const m of sample) {
        const f = probe.make(m);
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
      const rows: any[] = isObj(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : [];
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
      const wrong = rows.find((m) => !probe.holds(filter, m));
      ctx.expect(
        !wrong,
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
