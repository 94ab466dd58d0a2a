import type { GroupSpec } from "./types.ts";

/** Tracking agents: a cycle (trigger) starts dataset runs charged per mention; agent runs go in_progress → completed | failed (D-TAR-STATES). */
export const trackingAgents: GroupSpec = {
  id: "tracking-agents",
  title: "Tracking agents",
  section: "Endpoints › Tracking agents; decision D-TAR-STATES",
  base: "/v1/tracking_agents",
  run: {
    create: "POST /v1/tracking_agents/{agent_id}/trigger",
    states: { pending: "in_progress", working: [], completed: "completed", failed: "failed" },
    statusAt: "status.type",
  },
  price: { category: "mention", units: 1 },
};
