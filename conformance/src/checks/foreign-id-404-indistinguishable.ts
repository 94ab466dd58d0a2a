import type { DatasetsDataset, DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { Operation } from "../contract.ts";
import type { CheckContext } from "../types.ts";
import {
  collections,
  createIn,
  fillPath,
  fixtureDataset,
  listItemsOf,
  normalise,
  sameJson,
  seen,
} from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { groupOf, groupsOf } from "../groups/index.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";
import { SkipError } from "../skip.ts";

/** The code the seed's endpoint row names for an unknown or foreign id, by operation, and the assertion judging it. */
const NAMED_CODES: Record<string, { judges: CodeJudge; code: string }> = {
  "GET /v1/datasets/{dataset_id}": { judges: "code-datasets", code: "dataset_not_found" },
  "PATCH /v1/datasets/{dataset_id}": { judges: "code-datasets", code: "dataset_not_found" },
  "DELETE /v1/datasets/{dataset_id}": { judges: "code-datasets", code: "dataset_not_found" },
  "GET /v1/datasets/{dataset_id}/runs": { judges: "code-datasets", code: "dataset_not_found" },
  "POST /v1/datasets/{dataset_id}/runs": { judges: "code-datasets", code: "dataset_not_found" },
  "GET /v1/datasets/{dataset_id}/runs/{run_id}": { judges: "code-datasets", code: "dataset_not_found" },
  "GET /v1/audience_datasets/{audience_dataset_id}": { judges: "code-audiences", code: "audience_dataset_not_found" },
  "PATCH /v1/audience_datasets/{audience_dataset_id}": { judges: "code-audiences", code: "audience_dataset_not_found" },
  "DELETE /v1/audience_datasets/{audience_dataset_id}": {
    judges: "code-audiences",
    code: "audience_dataset_not_found",
  },
  "GET /v1/audience_datasets/{audience_dataset_id}/runs": {
    judges: "code-audiences",
    code: "audience_dataset_not_found",
  },
  "GET /v1/custom_parameters/{parameter_id}": { judges: "code-custom-parameters", code: "custom_parameter_not_found" },
  "PATCH /v1/custom_parameters/{parameter_id}": {
    judges: "code-custom-parameters",
    code: "custom_parameter_not_found",
  },
  "DELETE /v1/custom_parameters/{parameter_id}": {
    judges: "code-custom-parameters",
    code: "custom_parameter_not_found",
  },
  "GET /v1/tracking_agents/{agent_id}": { judges: "code-tracking-agents", code: "not_found" },
  "PATCH /v1/tracking_agents/{agent_id}": { judges: "code-tracking-agents", code: "not_found" },
  "DELETE /v1/tracking_agents/{agent_id}": { judges: "code-tracking-agents", code: "not_found" },
  "POST /v1/tracking_agents/{agent_id}/pause": { judges: "code-tracking-agents", code: "not_found" },
  "POST /v1/tracking_agents/{agent_id}/resume": { judges: "code-tracking-agents", code: "not_found" },
  "GET /v1/tracking_agents/{agent_id}/messages": { judges: "code-tracking-agents", code: "not_found" },
};
type CodeJudge = "code-datasets" | "code-audiences" | "code-custom-parameters" | "code-tracking-agents";
type Judges = "foreign-404" | "hidden" | "unchanged" | CodeJudge;

/** An id that cannot exist, carrying the group's documented prefix so a prefix check cannot tell it apart. */
const missingIdFor = (prefix: string | undefined) => `${prefix ?? ""}slkmissing${"0".repeat(14)}`;

/**
 * Every by-id operation called with another account's key on this account's
 * resource answers 404, with the same body as for an id that does not exist,
 * and changes nothing.
 */
export default defineCheck({
  id: "foreign-id-404-indistinguishable",
  phase: "isolation",
  rule: "A by-id operation on another account's resource (datasets, dataset runs and every other collection) gets 404 with the same body as a missing id (existence hidden, never 403) and changes nothing; a run id that does not exist under the caller's own dataset gets 404 too (its error_code other than dataset_not_found only warns, D-RUN-404)",
  section: "What the service does › Cross-cutting facts; Endpoints (404 for unknown or foreign id)",
  severity: "critical",
  asserts: {
    "foreign-404": seed(
      ["service.scope.foreign-404", "endpoints.404-unknown-or-foreign"],
      status(404),
      words("never 403"),
      words("404 for an unknown or foreign id"),
    ),
    hidden: seed("service.scope.foreign-404", words("existence is hidden")),
    "unknown-run": seed(["datasets.runs.read.404", "service.scope.foreign-404"], status(404)),
    "unknown-run-code": decided("D-RUN-404"),
    unchanged: seed("service.scope.account", words("Every resource is scoped to the account that owns the API key")),
    "code-datasets": seed(
      [
        "datasets.read.200",
        "datasets.update.semantics",
        "datasets.delete.204",
        "datasets.runs.list.404",
        "datasets.runs.create.404",
        "datasets.runs.read.404",
      ],
      code("dataset_not_found"),
    ),
    "code-audiences": seed(
      [
        "audience-datasets.read",
        "audience-datasets.update.404",
        "audience-datasets.delete",
        "audience-datasets.runs.list",
      ],
      code("audience_dataset_not_found"),
    ),
    "code-custom-parameters": seed(
      ["custom-parameters.read.404", "custom-parameters.update.errors", "custom-parameters.delete"],
      code("custom_parameter_not_found"),
    ),
    "code-tracking-agents": seed(
      [
        "tracking-agents.read.404",
        "tracking-agents.update",
        "tracking-agent.delete",
        "tracking-agents.pause-resume.empty",
        "tracking-agents.messages.not-found",
      ],
      code("not_found"),
    ),
  },
  keys: ["foreign"],
  requires: ["GET /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    // a run of this account, if any exists on the fixture (the billing checks start some)
    let runId: string | undefined;
    if (ctx.contract.op("GET /v1/datasets/{dataset_id}/runs")) {
      const runs = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs?limit=1` });
      runId = listItemsOf<DatasetsDatasetRun>(runs)[0]?.id;
    }
    // the datasets group's by-id paths (item, its runs, one run) from its descriptor
    const group = groupOf(ctx.contract, "datasets");
    const item = group?.ops.read?.path ?? "/v1/datasets/{dataset_id}";
    const MISSING_DATASET_ID = missingIdFor(group?.idPrefix);
    const MISSING_RUN_ID = missingIdFor(group?.run?.idPrefix);
    const byId = (path: string) =>
      path === item ||
      (path.startsWith(item + "/") &&
        [group?.run?.listOp?.path, group?.run?.readOp?.path, group?.run?.createOp?.path].includes(path));
    for (const op of ctx.contract.operations.filter((o) => byId(o.path))) {
      if (op.path.includes("{run_id}") && !runId) {
        ctx.notExercised(`${op.operationId}: no run on the fixture dataset`);
        continue;
      }
      let body: unknown;
      let release: (() => void) | undefined;
      if (op.method === "POST" && op.path.endsWith("/runs")) {
        // if the deployment wrongly accepts it, the foreign account would pay: guard it
        const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
        try {
          release = ctx.charge(
            price ? price.mul(RUN_COUNT).toFixed() : "0",
            `${op.operationId} with a foreign key (refused if conformant)`,
          );
        } catch (e) {
          if (!(e instanceof SkipError)) throw e;
          ctx.notExercised(`${op.operationId}: ${e.message}`);
          continue;
        }
        body = { search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" }, count: RUN_COUNT };
      } else if (op.bodySchema) body = op.bodyExamples[0] ?? {};
      const foreign = await ctx.req({
        method: op.method,
        path: fillPath(op.path, { dataset_id: ds.id, run_id: runId ?? "" })!,
        key: "foreign",
        body,
      });
      if (foreign.status >= 400) release?.();
      const missing = await ctx.req({
        method: op.method,
        path: fillPath(op.path, { dataset_id: MISSING_DATASET_ID, run_id: MISSING_RUN_ID })!,
        key: "foreign",
        body,
      });
      // the dataset branch also asks the missing-id answer to be a 404 (both reads name a dataset)
      indistinguishable404(
        ctx,
        op,
        foreign,
        [ds.id, ...(runId ? [runId] : [])],
        missing,
        [MISSING_DATASET_ID, MISSING_RUN_ID],
        true,
      );
    }
    // a run id that does not exist under the owner's own dataset: 404 (seed); its code is D-RUN-404's, lenient
    const runRead = group?.run?.readOp?.path;
    if (runRead) {
      const ex = await ctx.req({
        method: "GET",
        path: fillPath(runRead, { dataset_id: ds.id, run_id: MISSING_RUN_ID })!,
      });
      if (
        ctx.expect(
          ex.status === 404,
          {
            judges: "unknown-run",
            title: `a run id that does not exist, under the caller's own dataset, answered ${ex.status}`,
            received: seen(ex),
            expected: { status: 404, error_code: "dataset_not_found" },
          },
          ex,
        )
      )
        ctx.lenient("D-RUN-404", ex); // "unknown-run-code": any 404 code warns
    }
    // every other collection with a 201 create: its by-id operations, with the foreign key
    for (const c of collections(ctx, ["/v1/datasets"])) {
      const made = await createIn(ctx, c, "isolation");
      if (!made.id) {
        ctx.notExercised(`${c.list}: create answered ${made.ex.status} ${errorCode(made.ex) ?? ""}`);
        continue;
      }
      const group = groupsOf(ctx.contract).find((g) => g.base === c.list);
      const missingId = missingIdFor(group?.idPrefix ?? `${made.id.split("_")[0]}_`);
      for (const op of ctx.contract.operations.filter(
        (o) => o.path === c.item || (o.path.startsWith(c.item + "/") && !o.path.slice(c.item.length).includes("{")),
      )) {
        if (op.responses.has("402")) continue; // chargeable (e.g. trigger): not sent with a foreign key
        const body = op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined;
        const foreign = await ctx.req({
          method: op.method,
          path: fillPath(op.path, { [c.param]: made.id })!,
          key: "foreign",
          body,
        });
        const missing = await ctx.req({
          method: op.method,
          path: fillPath(op.path, { [c.param]: missingId })!,
          key: "foreign",
          body,
        });
        indistinguishable404(ctx, op, foreign, [made.id], missing, [missingId], false);
      }
      const own = await ctx.req({ method: "GET", path: fillPath(c.item, { [c.param]: made.id })! });
      ctx.expect(
        own.status === 200,
        {
          judges: "unchanged",
          title: `a foreign request deleted the owner's ${c.list} resource`,
          received: seen(own),
          expected: { status: 200 },
        },
        own,
      );
    }
    // the owner still sees it unchanged (a foreign PATCH/DELETE must not have acted)
    const own = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(ds.id)}` });
    ctx.expect(
      own.status === 200 && dataOf<DatasetsDataset>(own)?.name === ds.name,
      {
        judges: "unchanged",
        title: "a foreign request changed or deleted the owner's dataset",
        received: seen(own),
        expected: { status: 200, data: { id: ds.id, name: ds.name } },
      },
      own,
    );
  },
});

/**
 * A foreign id answers 404 with the code the operation's row names, and that
 * 404 reads like the one for an id that does not exist once the ids are
 * masked (existence is hidden).
 */
function indistinguishable404(
  ctx: CheckContext<Judges>,
  op: Operation,
  foreign: Exchange,
  foreignIds: string[],
  missing: Exchange,
  missingIds: string[],
  missingMustBe404: boolean,
): void {
  if (missingMustBe404)
    ctx.expect(
      missing.status === 404,
      {
        judges: "foreign-404",
        title: `${op.operationId} with an id that does not exist answered ${missing.status}`,
        received: seen(missing),
        expected: { status: 404 },
      },
      missing,
    );
  const refused = ctx.expect(
    foreign.status === 404,
    {
      judges: "foreign-404",
      title: `${op.operationId} with a foreign key answered ${foreign.status}`,
      received: seen(foreign),
      expected: { status: 404, body: missing.json },
    },
    foreign,
  );
  if (!refused) return;
  const named = NAMED_CODES[op.key];
  if (named)
    ctx.expect(
      errorCode(foreign) === named.code,
      {
        judges: named.judges,
        title: `${op.operationId} with a foreign key answered 404 ${errorCode(foreign) ?? "(no error_code)"}`,
        received: seen(foreign),
        expected: { status: 404, error_code: named.code },
      },
      foreign,
    );
  const a = normalise(foreign.json, foreignIds);
  const b = normalise(missing.json, missingIds);
  ctx.expect(
    sameJson(a, b) && missing.status === foreign.status,
    {
      judges: "hidden",
      title: `${op.operationId} foreign 404 differs from missing-id ${missing.status}`,
      received: { foreign: a },
      expected: { missing: b },
    },
    foreign,
  );
}
