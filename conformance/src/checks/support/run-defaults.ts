// The dataset run body's defaults as the seed states them (Endpoints ›
// Datasets, dataset run body), with the assertion that judges each, shared by
// the checks that read them back through the run's `params` echo.
import { seed } from "../../grounding/assertions.ts";
import { byDefault } from "../../grounding/facts.ts";
import type { Exchange } from "../../http.ts";
import type { CheckContext } from "../../types.ts";
import { pollUntil, postUrls, priceOf, refusedSetup, runIdOf, setupRefusal, terminalType } from "./groups.ts";
import { createDataset, setupNotAccepted } from "./util.ts";

/** Field → its default and the ledger row stating it. */
export const RUN_DEFAULTS = {
  count: { value: 200, assert: seed(["datasets.runs.body.count-default"], byDefault(200)) },
  num_comments_per_post: {
    value: 10,
    assert: seed(["datasets.runs.body.comments-default"], byDefault(10)),
  },
  country_code: {
    value: "US",
    assert: seed(["datasets.runs.body.country-default"], byDefault("US")),
  },
  enable_visual_recognition: {
    value: false,
    assert: seed(["datasets.runs.body.visual-default"], byDefault("false", "enable_visual_recognition")),
  },
  enable_transcribing: {
    value: false,
    assert: seed(["datasets.runs.body.transcribing-default"], byDefault("false", "enable_transcribing")),
  },
} as const;

export type DefaultedField = keyof typeof RUN_DEFAULTS;
export const DEFAULTED_FIELDS = Object.keys(RUN_DEFAULTS) as DefaultedField[];

/** One assertion per defaulted field, named after it: the `asserts` both default checks spread in. */
export const RUN_DEFAULT_ASSERTS = Object.fromEntries(DEFAULTED_FIELDS.map((f) => [f, RUN_DEFAULTS[f].assert])) as {
  [F in DefaultedField]: (typeof RUN_DEFAULTS)[F]["assert"];
};

/** What one run answered: its create response and its first read. */
export interface StartedRun {
  create: Exchange;
  read: Exchange;
}

/**
 * A one-URL run (a post of its own) with `extra` in its body, read once and
 * polled to its end, so its reservation (the default count of 200 when the
 * body sends none) is released before the next run starts.
 */
export async function startOneUrlRun(
  ctx: CheckContext,
  dataset: string,
  label: string,
  extra: object,
): Promise<StartedRun> {
  const runs = `/v1/datasets/${encodeURIComponent(dataset)}/runs`;
  const create = await ctx.req({
    method: "POST",
    path: runs,
    body: { search_query: { type: "url", source_urls: postUrls(ctx, "reddit", 1, label) }, ...extra },
  });
  const id = runIdOf(create);
  if (create.status !== 202 || !id) {
    const refusal = setupRefusal(create);
    if (refusal) refusedSetup(ctx, refusal, `the run ${label}`);
    return setupNotAccepted(ctx, `the run ${label}`, create);
  }
  const read = await ctx.req({ method: "GET", path: `${runs}/${encodeURIComponent(id)}` });
  await pollUntil(ctx, `${runs}/${encodeURIComponent(id)}`, terminalType);
  return { create, read };
}

/**
 * The run sent with nothing but its search query, once per kit run: the
 * checks that read the defaults back (the echo, and the equivalence with a
 * run that spells them out) share it, so the default count of 200 is
 * reserved once.
 */
export function omittedDefaultsRun(ctx: CheckContext): Promise<StartedRun> {
  return ctx.shared("run-defaults-omitted", async () => {
    const price = await priceOf(ctx, "mention");
    const ds = await createDataset(ctx, "run-defaults");
    const release = ctx.charge(price.mul(200).toFixed(), "a one-URL run reserving the default count (200 mentions)");
    try {
      return await startOneUrlRun(ctx, ds.id, "defaults", {});
    } catch (e) {
      release();
      throw e;
    }
  });
}
