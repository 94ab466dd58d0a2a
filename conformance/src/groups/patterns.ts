import type { GroupSpec } from "./types.ts";

/** Pattern detections: 0.5 unit per post of the dataset's latest completed run; steps clustering, labeling, assignment (D-PDR-STEPS). */
export const patternDetections: GroupSpec = {
  id: "pattern-detections",
  title: "Pattern detections and patterns",
  section: "Endpoints › Pattern detections; decisions D-PDR-STATES, D-PDR-STEPS",
  base: "/v1/pattern_detections",
  run: {
    create: "POST /v1/pattern_detections",
    read: "GET /v1/pattern_detections/{run_id}",
    states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
    statusAt: "status.type",
  },
  price: { category: "post_processing", units: 0.5 },
};

/** Patterns are read-only results of a detection. */
export const patterns: GroupSpec = {
  id: "patterns",
  title: "Patterns",
  section: "Endpoints › Patterns",
  base: "/v1/patterns",
};
