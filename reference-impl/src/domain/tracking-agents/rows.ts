// Stored shapes of tracking agents, their runs (cycles) and their alert
// messages, and the contract views built from them.
import type {
  TrackingAgentsAgentMessage,
  TrackingAgentsAgentRun,
  TrackingAgentsAgentRunStatusType,
  TrackingAgentsTrackingAgent,
} from "../../../../generated/client/types.gen.ts";
import type { Reservation } from "../../platform/billing/ledger.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { Row } from "../../platform/store.ts";
import type { AlertContent } from "./alert.ts";
import { integrationOf } from "./integrations.ts";
import type { Schedule } from "./schedule.ts";

export interface AgentRow extends Row {
  name: string;
  instructions: string;
  dataset_ids: string[];
  integration_ids: string[];
  count: number;
  num_comments_per_post: number;
  schedule: Schedule;
  paused: boolean;
  last_run_ms: number | null;
  next_run_ms: number | null;
  updated_ms: number;
}

export interface AgentRunRow extends Row {
  agent_id: string;
  updated_ms: number;
  status: { type: TrackingAgentsAgentRunStatusType };
  dataset_run_ids: string[];
  /** One per dataset run, taken all-or-nothing before the cycle started. */
  reservations: Reservation[];
  /** "trigger" or "schedule": who started the cycle. */
  origin: "trigger" | "schedule";
}

/** A stored alert: the content a cycle composed, plus whose feed it is in. */
export interface AgentMessageRow extends Row, AlertContent {
  agent_id: string;
  agent_name: string;
}

const seconds = (ms: number | null) => (ms === null ? null : unixSeconds(ms));

export function agentView(a: AgentRow): TrackingAgentsTrackingAgent {
  return {
    id: a.id,
    name: a.name,
    instructions: a.instructions,
    dataset_ids: [...a.dataset_ids],
    integrations: a.integration_ids.map((id) => integrationOf(a.account_id, id) ?? { id, type: "unknown" }),
    count: a.count,
    num_comments_per_post: a.num_comments_per_post,
    schedule: a.schedule,
    paused: a.paused,
    last_run_at: seconds(a.last_run_ms),
    next_run_at: seconds(a.next_run_ms),
    created_at: unixSeconds(a.created_ms),
    updated_at: unixSeconds(a.updated_ms),
  };
}

export function agentRunView(r: AgentRunRow): TrackingAgentsAgentRun {
  return {
    id: r.id,
    agent_id: r.agent_id,
    created_at: unixSeconds(r.created_ms),
    dataset_run_ids: [...r.dataset_run_ids],
    status: { type: r.status.type },
  };
}

export function agentMessageView(m: AgentMessageRow): TrackingAgentsAgentMessage {
  return {
    message_id: m.id,
    agent_id: m.agent_id,
    agent_name: m.agent_name,
    created_at: unixSeconds(m.created_ms),
    new_mention_count: m.new_mention_count,
    comment_count: m.comment_count,
    sentiment_score: m.sentiment_score,
    short_preview_message: m.short_preview_message,
    text: m.text,
    references: m.references,
  };
}
