// The mentions group's service: its one operation is the search,
// POST /v1/mentions (scope: the account's datasets or dataset_ids; sources,
// q, OR-of-AND filter groups, post_refs; every sort with keyset cursors
// bound to the sort and every filter). What it searches, each account's
// pool of mentions, is pool.ts.
import type * as z from "zod";
import type { MentionsMention } from "../../../../generated/client/types.gen.ts";
import type { zMentionsSearchBody } from "../../../../generated/client/zod.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { ValidationFailed } from "../../platform/errors.ts";
import { paginate, paginateSliced, type PageRequest, type PageResult } from "../../platform/pagination.ts";
import { matchesGroups } from "./filters.ts";
import type { MentionPools } from "./pool.ts";
import { mentionKey, type MentionRecord } from "./record.ts";
import { sortKeyOf } from "./sort-values.ts";
import type { TextHits } from "./text-index.ts";
import { mentionView } from "./view.ts";
import type { DatasetService } from "../datasets/service.ts";

export type SearchBody = z.output<typeof zMentionsSearchBody>;

export const MAX_FILTERS = 10;

/** What a mention search needs from the composition root (compose.ts). */
export interface MentionSearchNeeds extends MentionPools {
  readonly datasets: Pick<DatasetService, "find" | "live" | "lookup">;
}

/**
 * Stored posts one page may examine (D-REF-SCAN-BUDGET): about 20-30 ms at
 * 100k mentions on the benchmark machine, so no search holds the event loop
 * for long; a sparse filter answers a shorter page with `has_next`.
 */
export const SCAN_BUDGET = 20_000;

/** Rows examined between two event-loop turns by `searchSliced` (about 2 ms). */
export const SCAN_SLICE = 2_000;

/** `POST /v1/mentions` and `svc__list_mentions` (free, account-wide). */
export class MentionSearchService {
  constructor(private readonly services: MentionSearchNeeds) {}

  search(caller: Caller, body: SearchBody): PageResult<MentionsMention> {
    return searchMentions(this.services, caller.account.id, body);
  }

  /**
   * The same search, scanning in slices with event-loop turns in between, so
   * one account's costly search never stalls another account's request.
   * REST uses this; results equal `search`.
   */
  async searchSliced(caller: Caller, body: SearchBody): Promise<PageResult<MentionsMention>> {
    const accountId = caller.account.id;
    checkSearch(this.services, accountId, body);
    const q = body.q?.trim();
    const hits = q ? await this.services.mentions(accountId).textSearchSliced(q, body.search_mode) : undefined;
    const plan = planSearch(this.services, accountId, body, hits);
    // A sort view that is cold or behind is built or merged in slices, and a
    // search that needs one under way waits for it.
    const rows = plan.rows ?? (await this.services.mentions(accountId).sortedBySliced(body.sort));
    return plan.finish(await paginateSliced(rows, plan.keyOf, plan.request, plan.keep, SCAN_BUDGET, SCAN_SLICE));
  }
}

export function searchMentions(
  services: MentionSearchNeeds,
  accountId: string,
  body: SearchBody,
): PageResult<MentionsMention> {
  const plan = planSearch(services, accountId, body);
  const rows = plan.rows ?? services.mentions(accountId).sortedBy(body.sort);
  return plan.finish(paginate(rows, plan.keyOf, plan.request, plan.keep, SCAN_BUDGET));
}

/** The 422 and 404 answers a search gives before any work. */
function checkSearch(services: MentionSearchNeeds, accountId: string, body: SearchBody): void {
  const total = (body.filters ?? []).reduce((n, g) => n + g.length, 0);
  if (total > MAX_FILTERS) {
    throw new ValidationFailed([
      { loc: ["body", "filters"], msg: `At most ${MAX_FILTERS} filters in total; got ${total}.`, type: "too_big" },
    ]);
  }
  const reversed = reversedRanges(body.filters);
  if (reversed.length) throw new ValidationFailed(reversed);
  for (const id of body.dataset_ids ?? []) services.datasets.find(accountId, id);
}

/**
 * Everything a search decides before it walks the rows, and how it renders
 * the page. `rows` is the narrowed set when post_refs or a text query with
 * few hits decide it, undefined when the search walks the sort's view.
 */
function planSearch(
  services: MentionSearchNeeds,
  accountId: string,
  body: SearchBody,
  precomputedHits?: TextHits<MentionRecord>,
) {
  checkSearch(services, accountId, body);
  let scope: Set<string>;
  if (body.dataset_ids) {
    scope = new Set(body.dataset_ids);
  } else {
    scope = new Set(services.datasets.live(accountId).map((d) => d.id));
  }
  const pool = services.mentions(accountId);
  const sources = body.sources ? new Set<string>(body.sources) : undefined;
  const refs = body.post_refs ? new Set(body.post_refs.map((r) => mentionKey(r.source, r.id))) : undefined;
  const q = body.q?.trim();
  const textHits = q ? (precomputedHits ?? pool.textSearch(q, body.search_mode)) : undefined;

  // Checked for every stored post, so it allocates nothing: the scope is a
  // short array probed against each post's dataset map.
  const scopeIds = [...scope];
  const keep = (r: MentionRecord): boolean => {
    let inScope = false;
    for (let i = 0; i < scopeIds.length; i++) {
      if (r.datasets.has(scopeIds[i]!)) {
        inScope = true;
        break;
      }
    }
    if (!inScope) return false;
    if (sources && !sources.has(r.post.source)) return false;
    if (refs && !refs.has(r.key)) return false;
    if (textHits && !textHits.has(r)) return false;
    return matchesGroups(r, body.filters);
  };

  // When post_refs narrow the set, sort just those instead of scanning.
  const keyOf = sortKeyOf(body.sort);
  let rows: readonly MentionRecord[] | undefined;
  // Likewise for a text query with few hits: sort the hits, do not scan the pool.
  const byRefs = refs && (!textHits || refs.size <= textHits.size);
  const byText = !byRefs && textHits && (refs || textHits.size <= 5000);
  if (byRefs || byText) {
    const narrowest = byRefs
      ? [...refs!].map((k) => pool.get(k)).filter((r): r is MentionRecord => !!r)
      : [...textHits!];
    rows = narrowest.sort((a, b) => {
      const ka = keyOf(a);
      const kb = keyOf(b);
      return ka[0] !== kb[0] ? (ka[0] < kb[0] ? -1 : 1) : ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0;
    });
  }

  const request: PageRequest = {
    limit: body.limit,
    order: body.order,
    cursor: body.cursor,
    scope: {
      r: "mentions",
      sort: body.sort,
      order: body.order,
      dataset_ids: body.dataset_ids ? [...new Set(body.dataset_ids)].sort() : null,
      sources: body.sources ? [...new Set(body.sources)].sort() : null,
      q: q ?? null,
      search_mode: q ? body.search_mode : null,
      filters: body.filters ?? null,
      post_refs: refs ? [...refs].sort() : null,
    },
  };
  const name = (id: string) => {
    const d = services.datasets.lookup(accountId, id);
    return d ? { id: d.id, name: d.name } : undefined;
  };
  const finish = (page: PageResult<MentionRecord>): PageResult<MentionsMention> => ({
    ...page,
    items: page.items.map((r) => mentionView(r, name, body.parameter_ids ?? [])),
  });
  return { rows, keyOf, request, keep, finish };
}

/**
 * D-METRIC-CHANGE-OPERATOR: `in_range` is inclusive and `min > max` is 422;
 * JSON Schema cannot compare two fields, so the check lives here.
 */
function reversedRanges(filters: SearchBody["filters"]) {
  const issues: { loc: string[]; msg: string; type: string }[] = [];
  (filters ?? []).forEach((group, g) =>
    group.forEach((filter, f) => {
      if (filter.type !== "metric_change" || filter.operator.type !== "in_range") return;
      const { min, max } = filter.operator;
      if (min > max) {
        issues.push({
          loc: ["body", "filters", String(g), String(f), "operator"],
          msg: `in_range needs min <= max; got min ${min} and max ${max}.`,
          type: "value_error",
        });
      }
    }),
  );
  return issues;
}
