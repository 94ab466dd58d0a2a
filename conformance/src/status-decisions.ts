// The success statuses the contract chose for operations whose status the
// seed does not show (D-CREATE-201, D-ASYNC-202, D-EMPTY-204 and friends).
// attribution.ts applies them to the findings of unconverted checks;
// documented-status-only names them for an answer at another 2xx. Kept apart
// from attribution.ts, which reads the check registry, so a check can import
// them.

const s2xx = (not: number) => (s: number) => s >= 200 && s < 300 && s !== not;

/** Success statuses the contract chose where the seed names none (D-CREATE-201, D-ASYNC-202, D-EMPTY-204 and friends). */
export const STATUS_DECISIONS: Array<{ decision: string; ops: RegExp; status: (s: number) => boolean }> = [
  {
    decision: "D-CREATE-201",
    ops: /^(CustomParameters_create|TrackingAgents_create|ResearchPreviews_create)$/,
    status: s2xx(201),
  },
  { decision: "D-ASYNC-202", ops: /^(PatternDetections_create|TrackingAgents_trigger)$/, status: s2xx(202) },
  { decision: "D-CPR-ACCEPTED", ops: /^CustomParameters_createRun$/, status: s2xx(202) },
  { decision: "D-CP-DELETE", ops: /^CustomParameters_delete$/, status: s2xx(204) },
  {
    decision: "D-EMPTY-204",
    ops: /^(TrackingAgents_(delete|pause|resume)|AudienceDatasets_delete)$/,
    status: s2xx(204),
  },
];
