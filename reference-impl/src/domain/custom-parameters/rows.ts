// Stored rows of custom parameters and their runs, and their contract views
// (integer Unix seconds, as the seed fixes for this group).
import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterRun,
} from "../../../../generated/client/types.gen.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { RunKind, RunStatus } from "../../platform/runs/lifecycle.ts";
import type { Order } from "../../platform/pagination.ts";
import type { Row } from "../../platform/store.ts";
import type { ValueType } from "./instructions.ts";

/** What a list request asks for (validated by the adapter's generated zod). */
export interface ListRequest {
  limit: number;
  order: Order;
  cursor?: string | undefined;
}

export interface ParameterRow extends Row {
  name: string;
  instructions: string;
  value_type: ValueType;
  updated_ms: number;
}

export type ParameterRunState = "processing" | "completed" | "failed";

export interface ParameterRunRow extends Row {
  parameter_id: string;
  dataset_id: string;
  status: RunStatus<ParameterRunState>;
  updated_ms: number;
  mentions_total: number;
  mentions_done: number;
  mentions_error: number;
}

/**
 * D-CPR-STATES: `processing` covers both pending and working; no steps are
 * listed. Reserved as `post_processing` (0.5 unit per mention of the dataset).
 */
export const PARAMETER_RUN: RunKind<ParameterRunState> = {
  label: "custom parameter run",
  states: { pending: "processing", working: "processing", completed: "completed", failed: "failed" },
  recordsSteps: false,
  category: "post_processing",
  insufficientCode: "insufficient_credits_content_analysis",
};

export function parameterView(r: ParameterRow): CustomParametersCustomParameter {
  return {
    id: r.id,
    name: r.name,
    instructions: r.instructions,
    value_type: r.value_type,
    created_at: unixSeconds(r.created_ms),
    updated_at: unixSeconds(r.updated_ms),
  };
}

export function parameterRunView(r: ParameterRunRow): CustomParametersCustomParameterRun {
  return {
    id: r.id,
    custom_parameter_id: r.parameter_id,
    scope: { kind: "dataset", id: r.dataset_id },
    status: { type: r.status.type },
    mentions_total: r.mentions_total,
    mentions_done: r.mentions_done,
    mentions_error: r.mentions_error,
    created_at: unixSeconds(r.created_ms),
    updated_at: unixSeconds(r.updated_ms),
  };
}
