import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import { fillCollection, judgeDefaultPage } from "./support/pagination.ts";

/**
 * Each resource list, its default page (10) and the assertion that judges it:
 * the seed's rows where its endpoint names the default, the contract's for the
 * lists the seed shows as bare arrays. `fill`: the kit creates what is missing
 * to pass the default (free resources); tracking agents are not filled (the
 * plan caps them, and the agent checks need the room).
 */
const LISTS = [
  { path: "/v1/datasets", judges: "datasets", fill: true },
  { path: "/v1/audience_datasets", judges: "audienceDatasets", fill: true },
  { path: "/v1/custom_parameters", judges: "customParameters", fill: true },
  { path: "/v1/tracking_agents", judges: "trackingAgents", fill: false },
] as const;
const DEFAULT = 10;

/**
 * "omitted ≡ the seed's default" for the resource lists: a page without
 * `limit` is the page with limit=10, the same items and the same has_next.
 * A default changed to any other value shows once the list holds more items
 * than the smaller of the two, so the kit fills each list past 10 (free
 * resources, deleted at the end).
 */
export default defineCheck({
  id: "pagination-default-limit-equivalent",
  phase: "lists",
  rule: "GET /v1/datasets, /v1/audience_datasets, /v1/custom_parameters and /v1/tracking_agents without limit answer the page limit=10 answers: the same items, the same has_next",
  section:
    "Endpoints › Datasets, Audience datasets (limit default 10); Limits › Concurrency and caps (page size defaults)",
  severity: "major",
  asserts: {
    datasets: seed("datasets.list.default-limit", byDefault(DEFAULT, "limit")),
    audienceDatasets: seed("audience-datasets.list.default-limit", byDefault(DEFAULT, "limit")),
    customParameters: decided("D-CP-LIST", byDefault(DEFAULT)),
    trackingAgents: decided("D-TA-LIST", byDefault(DEFAULT)),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    for (const list of LISTS) {
      if (!ctx.contract.op(`GET ${list.path}`)) continue;
      if (list.fill && ctx.settings.profile !== "readonly") {
        const filled = await fillCollection(ctx, list.path, DEFAULT);
        if (filled.refused)
          ctx.notExercised(
            `${list.path}: a create answered ${filled.refused.status} while filling the list (${filled.held} held)`,
          );
      }
      await judgeDefaultPage(ctx, {
        judges: list.judges,
        what: `GET ${list.path}`,
        dflt: DEFAULT,
        omitted: () => ctx.req({ method: "GET", path: list.path }),
        explicit: () => ctx.req({ method: "GET", path: `${list.path}?limit=${DEFAULT}` }),
      });
    }
  },
});
