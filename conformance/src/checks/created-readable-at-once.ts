import type { DatasetsDataset, DatasetsDatasetCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, status, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import { collections, createDataset, createIn, idOf, is2xx, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

/**
 * The assertions each generic collection's create, read and list judge (by
 * list path): the seed's rows where its endpoint tables name the status or
 * the resource, the contract's decisions where the seed shows none.
 */
const COLLECTION = {
  "/v1/audience_datasets": { created: "audienceCreated", read: "audienceRead", listed: "audienceListed" },
  "/v1/custom_parameters": { created: "parameterCreated", read: "parameterRead", listed: "parameterListed" },
  "/v1/tracking_agents": { created: "agentCreated", read: "agentRead", listed: "agentListed" },
} as const;
/** The collections whose create status the seed does not show (D-CREATE-201). */
const CREATE_201_DECIDED = new Set(["/v1/custom_parameters", "/v1/tracking_agents"]);

/** A created resource is readable by id and listed at once, as the create response reported it. */
export default defineCheck({
  id: "created-readable-at-once",
  phase: "resources",
  rule: "A create answers 201 (datasets, audience datasets; D-CREATE-201 elsewhere) carrying the new id; the new resource is readable by id and listed at once with the values the create response reported (datasets: id, name, created_at)",
  section: "Endpoints › Datasets (and every collection with a create); Resources › Dataset (create response)",
  severity: "critical",
  asserts: {
    datasetCreated: seed("datasets.create.201", status(201)),
    createFields: seed("dataset.create-response-fields", field("id"), field("name"), field("created_at")),
    datasetRead: seed("datasets.read.200", status(200)),
    datasetListed: seed("datasets.list.sorted", words("list of Dataset")),
    audienceCreated: seed("audience-datasets.create", status(201)),
    audienceRead: seed("audience-datasets.read", status(200)),
    audienceListed: seed("audience-datasets.list", words("list sorted by created_at")),
    parameterCreated: seed("custom-parameters.create", words("CustomParameter")),
    parameterRead: seed("custom-parameters.read.404", words("CustomParameter")),
    parameterListed: seed("custom-parameters.list", words("array of CustomParameter")),
    agentCreated: seed("tracking-agents.create", words("TrackingAgent")),
    agentRead: seed("tracking-agents.read.404", words("TrackingAgent")),
    agentListed: seed("tracking-agents.list", words("array of TrackingAgent")),
    create201: decided("D-CREATE-201", status(201)),
  },
  requires: ["POST /v1/datasets", "GET /v1/datasets/{dataset_id}", "GET /v1/datasets"],
  async run(ctx) {
    const { id, ex } = await createDataset(ctx, "lifecycle-read");
    const created = dataOf<DatasetsDatasetCreated>(ex) ?? {};
    ctx.expect(
      ex.status === 201,
      { judges: "datasetCreated", title: `create answered ${ex.status}`, received: ex.status, expected: 201 },
      ex,
    );
    const hasFields = ctx.expect(
      created.id === id && "name" in created && typeof created.created_at === "string",
      {
        judges: "createFields",
        title: "the create response does not carry id, name and created_at",
        received: created,
        expected: { id: "<id>", name: "<name>", created_at: "<ISO 8601>" },
      },
      ex,
    );
    const read = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(id)}` });
    const d = dataOf<DatasetsDataset>(read) ?? {};
    // the values the create response reported (when it carried them) are the ones read back
    const want = hasFields ? { id, name: created.name, created_at: created.created_at } : { id };
    const differs = Object.entries(want).filter(([k, v]) => d[k as keyof typeof d] !== v);
    ctx.expect(
      read.status === 200 && differs.length === 0,
      {
        judges: "datasetRead",
        title: `the new dataset read by id answered ${read.status}${differs.length ? ` with ${differs.map(([k]) => k).join(", ")} other than the create response's` : ""}`,
        received: seen(read),
        expected: { status: 200, data: want },
      },
      read,
    );
    const w = await walk<DatasetsDataset>(ctx, "/v1/datasets", {
      limit: 100,
      maxPages: 5,
      stopWhen: (items) => items.some((x) => x?.id === id),
    });
    if (!w.items.some((x) => x?.id === id) && !w.complete && !w.error)
      ctx.notExercised("GET /v1/datasets: the new dataset is not among the first 500 listed");
    else
      ctx.expect(
        w.items.some((x) => x?.id === id),
        {
          judges: "datasetListed",
          title: w.error ? `the list answered ${w.error.status}` : "the new dataset is missing from the list",
          received: w.error ? seen(w.error) : `${w.items.length} items without ${id}`,
          expected: `list contains ${id}`,
        },
        w.error ?? w.pages.at(-1),
      );
    // every other collection of the contract with a create, a read and a list
    for (const c of collections(ctx, ["/v1/datasets"])) {
      const names = COLLECTION[c.list as keyof typeof COLLECTION];
      if (!names) {
        ctx.notExercised(`${c.list}: the seed names no create, read and list the kit knows for it`);
        continue;
      }
      const made = await createIn(ctx, c, "lifecycle-read");
      if (!made.id && is2xx(made.ex)) {
        ctx.fail(
          {
            judges: names.created,
            title: `POST ${c.list} answered ${made.ex.status} without the new resource's id`,
            received: seen(made.ex),
            expected: { status: "2xx", data: { id: "<id>" } },
          },
          made.ex,
        );
        continue;
      }
      // an audience dataset's body is the seed's own ({name}): only the plan's 400 is a refusal the seed allows
      if (!made.id && c.list === "/v1/audience_datasets" && made.ex.status !== 400) {
        ctx.fail(
          {
            judges: names.created,
            title: `POST ${c.list} with {name} answered ${made.ex.status}`,
            received: seen(made.ex),
            expected: { status: 201, data: { id: "<id>" } },
          },
          made.ex,
        );
        continue;
      }
      if (!made.id) {
        // the contract's example refused (its plan, its caps, an open point of the body): a setup, not a finding
        ctx.notExercised(
          `${c.list}: create answered ${made.ex.status} ${errorCode(made.ex) ?? ""} (a setup the deployment did not accept)`.trim(),
        );
        continue;
      }
      ctx.expect(
        made.ex.status === 201,
        {
          judges: CREATE_201_DECIDED.has(c.list) ? "create201" : names.created,
          title: `POST ${c.list} answered ${made.ex.status}, not 201`,
          received: made.ex.status,
          expected: 201,
        },
        made.ex,
      );
      const r = await ctx.req({ method: "GET", path: `${c.list}/${encodeURIComponent(made.id)}` });
      ctx.expect(
        (names.read === "audienceRead" ? r.status === 200 : is2xx(r)) && idOf(r) === made.id,
        {
          judges: names.read,
          title: `a new ${c.list} resource read by id answered ${r.status}`,
          received: seen(r),
          expected: { status: names.read === "audienceRead" ? 200 : "2xx", data: { id: made.id } },
        },
        r,
      );
      // any collection: only the id is read; a list the seed shows as a bare array is read whole
      const lw = await walk<{ id: string }>(ctx, c.list, {
        limit: 100,
        maxPages: 5,
        bareArray: true,
        stopWhen: (items) => items.some((x) => x?.id === made.id),
      });
      const found = lw.items.some((x) => x?.id === made.id);
      if (!found && lw.capped) {
        ctx.notExercised(`${c.list}: the new resource is not among the first 500 listed`);
        continue;
      }
      ctx.expect(
        found,
        {
          judges: names.listed,
          title: lw.error
            ? `GET ${c.list} answered ${lw.error.status}`
            : `a new ${c.list} resource is missing from the list`,
          received: lw.error ? seen(lw.error) : `${lw.items.length} items without it`,
          expected: `list contains ${made.id}`,
        },
        lw.error ?? lw.pages.at(-1),
      );
    }
  },
});
