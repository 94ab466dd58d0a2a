import type { GroupSpec } from "./types.ts";

/** Audience datasets and runs: 3 units per profile, the reservation sized by total_profile_count. */
export const audiences: GroupSpec = {
  id: "audiences",
  title: "Audience datasets, runs and profiles",
  section: "Endpoints › Audience datasets; States › Audience run",
  base: "/v1/audience_datasets",
  run: {
    create: "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    read: "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
    list: "GET /v1/audience_datasets/{audience_dataset_id}/runs",
    states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
    statusAt: "status.type",
  },
  price: { category: "audience_profile", units: 3 },
};

/** POST /v1/audience_profiles: a search across the account's audience datasets, free. */
export const audienceProfiles: GroupSpec = {
  id: "audience-profiles",
  title: "Audience profiles",
  section: "Endpoints › Audience profiles",
  base: "/v1/audience_profiles",
};
