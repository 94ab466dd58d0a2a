import type {
  DatasetsDataset,
  DatasetsDatasetRunCreated,
  MentionsMention,
} from "../../../generated/client/types.gen.ts";
import type { CheckContext } from "../types.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { errorCode } from "./support/groups.ts";
import { dataOf, isObject, type Untrusted } from "../typed.ts";
import { RUN_COUNT, mentionPrice, pollRun } from "./support/billing.ts";
import { createDataset, fixtureDataset, is2xx, listItemsOf, listOf, seen, walk } from "./support/util.ts";

/** Mentions as a search listed them (an item that is not an object stays, as undefined). */
type Mentions = Array<Untrusted<MentionsMention> | undefined>;

/**
 * A foreign dataset that holds mentions: the foreign account's own data when it
 * has some (no cost), else one the kit fills with a minimum run. An empty
 * foreign dataset would let a server that leaks every mention pass.
 */
async function foreignWithMentions(ctx: CheckContext): Promise<{ id: string; mentions: Mentions }> {
  const hasSearch = !!ctx.contract.op("POST /v1/mentions");
  const theirs = await walk<DatasetsDataset>(ctx, "/v1/datasets", { limit: 20, maxPages: 1, key: "foreign" });
  if (hasSearch) {
    for (const d of theirs.items.slice(0, 5)) {
      const id = d?.id;
      if (typeof id !== "string") continue;
      const ex = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        key: "foreign",
        body: { dataset_ids: [id], limit: 10 },
      });
      const rows = listItemsOf<MentionsMention>(ex);
      if (rows.length) return { id, mentions: rows };
    }
  }
  const made = await createDataset(ctx, "foreign", "foreign");
  if (!hasSearch || !ctx.contract.op("POST /v1/datasets/{dataset_id}/runs")) return { id: made.id, mentions: [] };
  const { price } = await mentionPrice(ctx, "foreign");
  ctx.charge(
    price.mul(RUN_COUNT).toFixed(),
    `a ${RUN_COUNT}-mention run on the foreign account (so its dataset is not empty)`,
  );
  const run = await ctx.req({
    method: "POST",
    path: `/v1/datasets/${encodeURIComponent(made.id)}/runs`,
    key: "foreign",
    body: {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "cold brew concentrate" },
      count: RUN_COUNT,
    },
  });
  const runId = dataOf<DatasetsDatasetRunCreated>(run)?.id;
  if (typeof runId === "string") await pollRun(ctx, made.id, runId, "foreign");
  const ex = await ctx.req({
    method: "POST",
    path: "/v1/mentions",
    key: "foreign",
    body: { dataset_ids: [made.id], limit: 10 },
  });
  return { id: made.id, mentions: listItemsOf<MentionsMention>(ex) };
}

/** Whether a listed mention names the dataset among its datasets (as an object with its id, or the bare id). */
function carries(m: unknown, datasetId: string): boolean {
  const datasets = isObject(m) ? m.datasets : undefined;
  return Array.isArray(datasets) && datasets.some((d) => (isObject(d) && d.id === datasetId) || d === datasetId);
}

/** Account-wide lists and mention searches never show another account's data. */
export default defineCheck({
  id: "lists-never-leak-foreign",
  phase: "isolation",
  rule: "Lists (datasets) and mention searches never include another account's resources (checked against a foreign dataset that holds mentions)",
  section: "What the service does › Cross-cutting facts (every resource is scoped to the account)",
  severity: "critical",
  asserts: {
    scope: seed("service.scope.account", words("Every resource is scoped to the account that owns the API key")),
    "scoped-search": seed("mentions.404", status(404), code("dataset_not_found")),
  },
  keys: ["foreign"],
  requires: ["GET /v1/datasets", "POST /v1/datasets"],
  async run(ctx) {
    const mine = await fixtureDataset(ctx);
    const theirs = await foreignWithMentions(ctx);
    const a = await walk<DatasetsDataset>(ctx, "/v1/datasets", { limit: 100, maxPages: 20 });
    const leakA = a.items.find((d) => d?.id === theirs.id);
    ctx.expect(
      !leakA,
      {
        judges: "scope",
        title: "another account's dataset appears in this account's list",
        received: leakA,
        expected: "absent",
      },
      a.pages.at(-1),
    );
    if (!a.complete) ctx.notExercised(`this account's dataset list was read to page ${a.pages.length} only`);
    const b = await walk<DatasetsDataset>(ctx, "/v1/datasets", { limit: 100, maxPages: 20, key: "foreign" });
    if (!b.complete) ctx.notExercised(`the other account's dataset list was read to page ${b.pages.length} only`);
    const leakB = b.items.find((d) => d?.id === mine.id);
    ctx.expect(
      !leakB,
      {
        judges: "scope",
        title: "this account's dataset appears in another account's list",
        received: leakB,
        expected: "absent",
      },
      b.pages.at(-1),
    );
    if (!ctx.contract.op("POST /v1/mentions")) return;
    const scoped = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [theirs.id], limit: 5 },
    });
    ctx.expect(
      scoped.status === 404 && errorCode(scoped) === "dataset_not_found",
      {
        judges: "scoped-search",
        title:
          `a mention search scoped to a foreign dataset answered ${scoped.status} ${errorCode(scoped) ?? ""}`.trimEnd(),
        received: seen(scoped),
        expected: { status: 404, error_code: "dataset_not_found" },
      },
      scoped,
    );
    if (!theirs.mentions.length) {
      ctx.notExercised("the foreign account has no mentions to leak (mention searches not checked)");
      return;
    }
    // the foreign posts asked for by reference, and the newest pages of an unscoped search
    const refs = theirs.mentions.slice(0, 5).map((m) => ({ id: m?.id, source: m?.source }));
    const byRef = await ctx.req({ method: "POST", path: "/v1/mentions", body: { post_refs: refs, limit: 100 } });
    const unscoped = await ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: 100 } });
    for (const ex of [byRef, unscoped]) {
      const rows = listOf(ex) ?? [];
      const leak = rows.find((m) => carries(m, theirs.id));
      ctx.expect(
        is2xx(ex) && !leak,
        {
          judges: "scope",
          title: `a mention search${ex === byRef ? " by post_refs" : ""} returned a post of a foreign dataset`,
          received: leak ?? seen(ex),
          expected: "200 without any post of another account's dataset",
        },
        ex,
      );
    }
  },
});
