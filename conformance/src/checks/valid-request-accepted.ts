import fc from "fast-check";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, lowerBound, status, upperBound } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { DATASETS, seen } from "./support/util.ts";

/** Positive data: generated valid names are accepted by create and update and stored exactly. */
const nameChar = fc.oneof(
  fc.constantFrom(
    ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,:!?'\"&()/#@+éüßçñøå日本語中文한국어ÆÐ€",
  ),
  fc.constantFrom("\u00a0", "\u2014"),
);

export default defineCheck({
  id: "valid-request-accepted",
  phase: "resources",
  rule: "Generated valid bodies (names of 1-255 characters, any script) are accepted (201 on create, 200 on update) and stored exactly",
  section: "Endpoints › Datasets (POST, PATCH)",
  severity: "critical",
  asserts: {
    // a name of 1-255 characters is the seed's: created with 201, renamed with 200
    created: seed(["datasets.create.201", "dataset.name-bounds"], status(201), lowerBound(1), upperBound(255)),
    renamed: seed(["datasets.update.semantics", "dataset.name-bounds"], status(200), lowerBound(1), upperBound(255)),
    // that the answer carries the very name sent (no trimming, no normalisation) is the contract's
    stored: decided("D-NAME-STORED", field("name")),
  },
  requires: ["POST /v1/datasets", "PATCH /v1/datasets/{dataset_id}"],
  async run(ctx) {
    ctx.mutates("create datasets with generated names");
    const zBody = ctx.contract.zodOf("Datasets.CreateDatasetBody");
    const prefix = ctx.name("p") + "-";
    const arb = fc
      .oneof(
        fc.string({ unit: nameChar, minLength: 1, maxLength: 255 - prefix.length }),
        fc.constant("x".repeat(255 - prefix.length)),
      )
      .map((s) => prefix + s)
      .filter((name) => !zBody || zBody.safeParse({ name }).success);
    const seed = ctx.fcSeed();
    const numRuns = Math.max(2, Math.min(ctx.settings.numRuns, 6));
    let lastFailure:
      { judges: "created" | "renamed" | "stored"; title: string; ex: Exchange; expected: unknown } | undefined;
    const out = await fc.check(
      fc.asyncProperty(arb, async (name) => {
        const ex = await ctx.req({ method: "POST", path: DATASETS, body: { name }, meta: { seed } });
        const created = dataOf<DatasetsDataset>(ex);
        const id = created?.id;
        if (typeof id === "string") ctx.track("dataset", `${DATASETS}/${encodeURIComponent(id)}`);
        if (ex.status !== 201) {
          lastFailure = {
            judges: "created",
            title: `create with a valid name answered ${ex.status}`,
            ex,
            expected: { status: 201, data: { name } },
          };
          return false;
        }
        if (created?.name !== name) {
          lastFailure = {
            judges: "stored",
            title: "create answered another name than the valid one sent",
            ex,
            expected: { status: 201, data: { name } },
          };
          return false;
        }
        const newName = name.split("").reverse().join("").trim() || "renamed";
        const up = await ctx.req({
          method: "PATCH",
          path: `${DATASETS}/${encodeURIComponent(String(id))}`,
          body: { name: newName },
          meta: { seed },
        });
        if (up.status !== 200 || dataOf<DatasetsDataset>(up)?.name !== newName) {
          lastFailure = {
            judges: up.status !== 200 ? "renamed" : "stored",
            title:
              up.status !== 200
                ? `update with a valid name answered ${up.status}`
                : "update answered another name than the valid one sent",
            ex: up,
            expected: { status: 200, data: { name: newName } },
          };
          return false;
        }
        ctx.pass(ex);
        ctx.pass(up);
        return true;
      }),
      { seed, numRuns, endOnFailure: true, path: ctx.settings.fcPath },
    );
    if (out.failed && lastFailure) {
      ctx.fail(
        {
          judges: lastFailure.judges,
          title: `${lastFailure.title}`,
          received: seen(lastFailure.ex),
          expected: lastFailure.expected,
          seed,
          path: out.counterexamplePath ?? undefined,
          replay: `--seed ${seed} --fc-path ${out.counterexamplePath} --only valid-request-accepted`,
        },
        lastFailure.ex,
      );
    } else if (out.failed)
      throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
  },
});
