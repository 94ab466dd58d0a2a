import type { GroupSpec } from "./types.ts";

/** Custom parameters and their runs: 0.5 unit per post processed; runs start `processing` (D-CPR-STATES). */
export const customParameters: GroupSpec = {
  id: "custom-parameters",
  title: "Custom parameters and their runs",
  section: "Endpoints › Custom parameters; decision D-CPR-STATES",
  base: "/v1/custom_parameters",
  run: {
    create: "POST /v1/custom_parameters/{parameter_id}/runs",
    read: "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    list: "GET /v1/custom_parameters/{parameter_id}/runs",
    states: { pending: "processing", working: [], completed: "completed", failed: "failed" },
    statusAt: "status.type",
  },
  price: { category: "post_processing", units: 0.5 },
};
