import type { AudiencesAudienceDataset, AudiencesAudienceProfile } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { bodyOf } from "../typed.ts";
import { AUD } from "./support/audiences.ts";
import { listItemsOf, seen, walk } from "./support/util.ts";

const PROFILES = "/v1/audience_profiles";
/** audience datasets sampled, newest profiles taken from each, pages walked without ids */
const DATASETS = 3;
const PER_DATASET = 5;
const MAX_PAGES = 10;

/**
 * A profile search without audience_dataset_ids spans every audience dataset
 * of the account: the newest profiles of each dataset (searched by id) are
 * all in the walk of the search without ids, same sort. A walk that reaches
 * its cap while its pages still bring new profiles is not exercised; one
 * whose pages say has_next but bring nothing new fails the cursor walk.
 */
export default defineCheck({
  id: "audience-profiles-omit-spans-all",
  phase: "groups",
  // after the checks that collect profiles (when the profile runs them), before the one that deletes a source
  after: ["audience-run-*", "audience-profile-billing"],
  rule: "POST /v1/audience_profiles without audience_dataset_ids (sort created_at, order desc, cursor followed) returns every profile that the same search over one audience dataset of the account returns (its newest 5, for up to 3 audience datasets holding profiles)",
  section: "Endpoints › Audience profiles (audience_dataset_ids)",
  severity: "major",
  asserts: {
    spans: seed("audience-profiles.omit-spans-all", words("omit to span all account datasets")),
    walk: seed("pagination.cursor-walk", words("Cursor based")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/audience_datasets", "POST /v1/audience_profiles"],
  async run(ctx) {
    const ads = await walk<AudiencesAudienceDataset>(ctx, AUD, { limit: 100, order: "desc", maxPages: 5 });
    const holding = ads.items
      .filter((d) => typeof d?.id === "string" && typeof d.profile_count === "number" && d.profile_count > 0)
      .slice(0, DATASETS)
      .map((d) => d.id as string);
    if (holding.length === 0) ctx.skip("not exercised: the account has no audience dataset holding profiles");

    const ids = (ex: Exchange) =>
      listItemsOf<AudiencesAudienceProfile>(ex)
        .map((p) => p?.id)
        .filter((id): id is string => typeof id === "string");
    const wanted = new Map<string, string>(); // profile id → its audience dataset
    for (const ad of holding) {
      const ex = await ctx.req({
        method: "POST",
        path: PROFILES,
        body: { audience_dataset_ids: [ad], limit: PER_DATASET, sort: "created_at", order: "desc" },
      });
      if (ex.status !== 200) {
        ctx.notExercised(`the profile search over audience dataset ${ad} answered ${ex.status}`);
        continue;
      }
      for (const id of ids(ex)) wanted.set(id, ad);
    }
    if (wanted.size === 0) ctx.skip("not exercised: the searches by audience dataset returned no profiles");

    const seenIds = new Set<string>();
    let cursor: string | undefined;
    let last: Exchange | undefined;
    let complete = false;
    let stale = 0; // pages in a row that said has_next and brought no profile not seen before
    for (let page = 0; page < MAX_PAGES; page++) {
      const body: Record<string, unknown> = { limit: 100, sort: "created_at", order: "desc" };
      if (cursor) body.cursor = cursor;
      last = await ctx.req({ method: "POST", path: PROFILES, body });
      const b = bodyOf<{ data: unknown[]; has_next: boolean; cursor: string | null }>(last);
      if (last.status !== 200 || !Array.isArray(b?.data)) {
        // the first page is the rule's; a later one refused the cursor the deployment itself gave
        ctx.fail(
          {
            judges: page === 0 ? "spans" : "walk",
            title: `the profile search without audience_dataset_ids answered ${last.status}${page ? ` on page ${page + 1} (its own cursor)` : ""}`,
            received: seen(last),
            expected: { status: 200, data: "list of AudienceProfile" },
          },
          last,
        );
        return;
      }
      const size = seenIds.size;
      for (const id of ids(last)) seenIds.add(id);
      stale = seenIds.size === size ? stale + 1 : 0;
      const found = [...wanted.keys()].every((id) => seenIds.has(id)); // every sampled profile is there
      if (found || b.has_next !== true || typeof b.cursor !== "string" || b.cursor.length === 0) {
        complete = true;
        break;
      }
      cursor = b.cursor;
    }
    if (!complete && stale > 0)
      return ctx.fail(
        {
          judges: "walk",
          title: `the profile search without audience_dataset_ids said has_next on ${stale} page(s) in a row that brought no new profile`,
          received: { pages: MAX_PAGES, profiles_seen: seenIds.size, last: seen(last!) },
          expected: "each cursor page brings profiles not listed before, until has_next is false",
        },
        last,
      );
    if (!complete)
      return ctx.notExercised(
        `the account holds more than ${MAX_PAGES * 100} profiles newer than the sampled ones: the walk without ids stopped at ${MAX_PAGES} pages`,
      );
    const missing = [...wanted].filter(([id]) => !seenIds.has(id));
    ctx.expect(
      missing.length === 0,
      {
        judges: "spans",
        title: `the profile search without audience_dataset_ids misses ${missing.length} of ${wanted.size} profiles of the account's audience datasets`,
        received: { profiles_without_ids: seenIds.size, missing: Object.fromEntries(missing.slice(0, 10)) },
        expected: "every profile of every audience dataset of the account",
      },
      last,
    );
  },
});
