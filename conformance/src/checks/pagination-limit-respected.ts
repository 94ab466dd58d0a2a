import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, seen } from "./support/util.ts";
import { bodyOf } from "../typed.ts";
import { jsonAt } from "./support/groups.ts";
import { otherLists, pageSize, paginationFixture, type Page } from "./support/pagination.ts";

/** A page never holds more than `limit` items; the default page size is the documented one. */
export default defineCheck({
  id: "pagination-limit-respected",
  phase: "lists",
  rule: "A page holds at most `limit` items (exactly `limit` when has_next is true); without limit the documented default applies (10 resources, 25 usage history, …); 1 and 100 are accepted",
  section: "Limits › Concurrency and caps (page size); Endpoints › Datasets (limit default 10)",
  severity: "major",
  rules: {
    seed: "Page size | 1-100 on every list; defaults 10 (resources), 20 (mentions, profiles), 25 (chat messages, usage history, agent messages)",
    decisions: [
      decision("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns)$/ }),
      decision("D-TA-LIST", { ops: /^TrackingAgents_list$/ }),
      // the seed caps a page at `limit`; that a page before the end is full is the contract's
      decision("D-PAGE-FILL", { title: /: a short page before the end/ }),
    ],
  },
  decisions: ["D-LIST-ENVELOPE", "D-TA-LIST", "D-PAGE-FILL"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const fixture = await paginationFixture(ctx);
    const op = ctx.contract.op("GET /v1/datasets")!;
    const dflt = Number(op.params.find((p) => p.name === "limit")?.schema.default ?? 10);
    for (const limit of [1, 3, undefined, 100]) {
      const ex = await ctx.req({ method: "GET", path: DATASETS + (limit ? `?limit=${limit}` : "") });
      const b = bodyOf<Page>(ex);
      const n = pageSize(ex);
      const cap = limit ?? dflt;
      ctx.expect(
        ex.status === 200 && n >= 0 && n <= cap && (!b?.has_next || n === cap),
        {
          title: `limit=${limit ?? `(default ${dflt})`} returned ${n} items (has_next ${b?.has_next})${ex.status === 200 && n >= 0 && n < cap ? ": a short page before the end" : ""}`,
          received: { status: ex.status, items: n, has_next: b?.has_next },
          expected: { status: 200, items: b?.has_next ? cap : `<= ${cap}` },
        },
        ex,
      );
      // the fixture leaves more datasets than the default page: the default must be met exactly, not merely not exceeded
      if (limit === undefined && fixture.length)
        ctx.expect(
          n === dflt && b?.has_next === true,
          {
            title: `without limit the page holds ${n} items, not the documented default ${dflt}${n < dflt && b?.has_next === true ? ": a short page before the end" : ""}`,
            received: { items: n, has_next: b?.has_next },
            expected: { items: dflt, has_next: true },
          },
          ex,
        );
      else if (limit === undefined && !b?.has_next)
        ctx.notExercised(`GET /v1/datasets default page: the account holds only ${n} datasets (readonly profile)`);
    }
    // the mention search: its body's default page size (20) when the account holds more
    const search = ctx.contract.op("POST /v1/mentions");
    if (search) {
      const d = Number(jsonAt(search.bodySchema, "properties", "limit", "default") ?? 20);
      const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: {} });
      const b = bodyOf<Page>(ex);
      const n = pageSize(ex);
      if (ex.status === 200 && b?.has_next === false && n < d)
        ctx.notExercised(`Mentions_search default page: the account holds only ${n} mentions`);
      else
        ctx.expect(
          ex.status === 200 && n === d && b?.has_next === true,
          {
            title: `a mention search without limit returned ${n} mentions, not the default ${d}${ex.status === 200 && n < d && b?.has_next === true ? ": a short page before the end" : ""}`,
            received: { status: ex.status, items: n, has_next: b?.has_next },
            expected: { status: 200, items: d, has_next: true },
          },
          ex,
        );
    }
    // the profile search: its body's default page size (20) when the account holds more
    const profiles = ctx.contract.op("POST /v1/audience_profiles");
    if (profiles) {
      const d = Number(jsonAt(profiles.bodySchema, "properties", "limit", "default") ?? 20);
      const ex = await ctx.req({ method: "POST", path: "/v1/audience_profiles", body: {} });
      const b = bodyOf<Page>(ex);
      const n = pageSize(ex);
      if (ex.status === 200 && b?.has_next === false && n < d)
        ctx.notExercised(`AudienceProfiles_search default page: the account holds only ${n} profiles`);
      else
        ctx.expect(
          ex.status === 200 && n === d && b?.has_next === true,
          {
            title: `a profile search without limit returned ${n} profiles, not the default ${d}${ex.status === 200 && n < d && b?.has_next === true ? ": a short page before the end" : ""}`,
            received: { status: ex.status, items: n, has_next: b?.has_next },
            expected: { status: 200, items: d, has_next: true },
          },
          ex,
        );
    }
    // every other parameterless list: its documented default page size, and limit=1
    for (const other of otherLists(ctx)) {
      const d = Number(other.params.find((p) => p.name === "limit")?.schema.default ?? 10);
      for (const limit of [undefined, 1]) {
        const ex = await ctx.req({ method: "GET", path: other.path + (limit ? `?limit=${limit}` : "") });
        if (ex.status !== 200) {
          ctx.fail(
            {
              title: `${other.operationId} limit=${limit ?? "(default)"} answered ${ex.status}`,
              received: seen(ex),
              expected: "200 with a page",
            },
            ex,
          );
          continue;
        }
        const b = bodyOf<Page>(ex);
        const n = pageSize(ex);
        const cap = limit ?? d;
        ctx.expect(
          n >= 0 && n <= cap && (!b?.has_next || n === cap),
          {
            title: `${other.operationId} limit=${limit ?? `(default ${d})`} returned ${n} items (has_next ${b?.has_next})${n >= 0 && n < cap ? ": a short page before the end" : ""}`,
            received: { items: n, has_next: b?.has_next },
            expected: { items: b?.has_next ? cap : `<= ${cap}` },
          },
          ex,
        );
        // a list shorter than its default page shows nothing about the default
        if (limit === undefined && !b?.has_next)
          ctx.notExercised(
            `${other.operationId}: the account holds ${n} items, not more than the default page of ${d}`,
          );
      }
    }
  },
});
