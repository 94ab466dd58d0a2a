import type { GroupSpec } from "./types.ts";

/** Datasets and their runs: runs collect mentions (1 unit each), states pending → working → completed | failed. */
export const datasets: GroupSpec = {
  id: "datasets",
  title: "Datasets and dataset runs",
  section: "Endpoints › Datasets; States › Dataset run",
  base: "/v1/datasets",
  run: {
    create: "POST /v1/datasets/{dataset_id}/runs",
    read: "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    list: "GET /v1/datasets/{dataset_id}/runs",
    states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
    statusAt: "status.type",
  },
  price: { category: "mention", units: 1 },
};
