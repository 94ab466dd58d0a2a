// Tracking agent rules shared by REST and MCP: CRUD with the plan cap,
// PATCH semantics, soft delete, pause/resume, trigger, the alert feed, and
// the scheduler. Each live, unpaused agent holds one timer on the shared
// Clock set for its `next_run_at`; when it fires, the same cycle as a trigger
// runs, and the timer is set for the following slot. Tests drive it with a
// ManualClock across simulated days.
import type * as z from "zod";
import type {
  TrackingAgentsAgentMessage,
  TrackingAgentsAgentRun,
  TrackingAgentsTrackingAgent,
} from "../../../../generated/client/types.gen.ts";
import type { zTrackingAgentsCreateBody, zTrackingAgentsUpdateBody } from "../../../../generated/client/zod.gen.ts";
import type { Account } from "../../platform/accounts.ts";
import { PLANS } from "../../platform/billing/plans.ts";
import type { Cancel } from "../../platform/clock.ts";
import type { Caller } from "../../platform/env.ts";
import { ApiError, ConflictError, NotFoundError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { PageResult } from "../../platform/pagination.ts";
import type { DatasetService, ListQuery } from "../datasets/service.ts";
import type { AccountDirectory } from "../../platform/accounts.ts";
import { AgentCycles, type CycleNeeds } from "./cycle.ts";
import { integrationOf } from "./integrations.ts";
import { agentMessageView, agentRunView, agentView, type AgentRow } from "./rows.ts";
import { nextRunMs } from "./schedule.ts";
import { AgentTables } from "./tables.ts";

export type CreateAgentBody = z.output<typeof zTrackingAgentsCreateBody>;
export type UpdateAgentBody = z.output<typeof zTrackingAgentsUpdateBody>;

export interface AgentSettings {
  /**
   * Demo override (AGENT_CYCLE_SECONDS): when set, every unpaused agent cycles
   * every N seconds of clock time instead of at its daily/weekly slot.
   */
  cycleSeconds?: number | undefined;
}

/** What the tracking agent service needs from the composition root (compose.ts). */
export type TrackingAgentNeeds = CycleNeeds & {
  readonly directory: AccountDirectory;
  readonly datasets: Pick<DatasetService, "find">;
};

export class TrackingAgentService {
  readonly tables = new AgentTables();
  readonly cycles: AgentCycles;
  settings: AgentSettings = {};
  private readonly timers = new Map<string, Cancel>();

  constructor(private readonly services: TrackingAgentNeeds) {
    this.cycles = new AgentCycles(services, this.tables);
  }

  /**
   * D-DATASET-DELETED-REFS: a deleted dataset leaves the `dataset_ids` of
   * every agent of the account at once (their `updated_at` moves); an agent
   * left with none stays, and its cycles answer `dataset_has_no_queries`.
   */
  forgetDataset(accountId: string, datasetId: string, atMs: number): void {
    for (const agent of this.tables.agents.live(accountId, (a) => a.dataset_ids.includes(datasetId))) {
      agent.dataset_ids = agent.dataset_ids.filter((id) => id !== datasetId);
      agent.updated_ms = atMs;
    }
  }

  private find(accountId: string, id: string): AgentRow {
    const agent = this.tables.agents.get(accountId, id);
    if (!agent) throw new NotFoundError("not_found", `Tracking agent ${id} not found.`);
    return agent;
  }

  /** Dataset ids must name live datasets of the account (D-TA-CREATE-404); duplicates collapse. */
  private checkDatasets(accountId: string, ids: string[]): string[] {
    for (const id of ids) this.services.datasets.find(accountId, id);
    return [...new Set(ids)];
  }

  private checkIntegrations(accountId: string, ids: string[]): string[] {
    for (const id of ids) {
      if (!integrationOf(accountId, id)) throw new NotFoundError("not_found", `Integration ${id} not found.`);
    }
    return [...new Set(ids)];
  }

  create(caller: Caller, body: CreateAgentBody): TrackingAgentsTrackingAgent {
    const accountId = caller.account.id;
    const datasetIds = this.checkDatasets(accountId, body.dataset_ids);
    const integrationIds = this.checkIntegrations(accountId, body.integration_ids ?? []);
    const cap = PLANS[caller.account.plan].limits.tracking_agents;
    if (this.tables.agents.live(accountId).length >= cap) {
      throw new ConflictError(
        "tracking_agent_limit_reached",
        `The plan allows ${cap} tracking agents; delete one or upgrade.`,
      );
    }
    const now = this.services.clock.now();
    const agent: AgentRow = {
      id: newId("ta_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      name: body.name,
      instructions: body.instructions,
      dataset_ids: datasetIds,
      integration_ids: integrationIds,
      count: body.count,
      num_comments_per_post: body.num_comments_per_post,
      schedule: body.schedule,
      paused: false,
      last_run_ms: null,
      next_run_ms: null,
    };
    this.tables.agents.insert(agent);
    this.arm(caller.account, agent);
    return agentView(agent);
  }

  list(caller: Caller, q: ListQuery): PageResult<TrackingAgentsTrackingAgent> {
    const page = this.tables.agents.page(caller.account.id, { ...q, scope: { r: "tracking_agents", order: q.order } });
    return { ...page, items: page.items.map(agentView) };
  }

  read(caller: Caller, id: string): TrackingAgentsTrackingAgent {
    return agentView(this.find(caller.account.id, id));
  }

  /** PATCH (D-TA-PATCH): listed fields replace; an empty body changes nothing; a new schedule re-arms the timer. */
  update(caller: Caller, id: string, body: UpdateAgentBody): TrackingAgentsTrackingAgent {
    const accountId = caller.account.id;
    const agent = this.find(accountId, id);
    // Check every id before changing anything, so a 404 leaves the agent as it was.
    const datasetIds = body.dataset_ids ? this.checkDatasets(accountId, body.dataset_ids) : undefined;
    const integrationIds = body.integration_ids ? this.checkIntegrations(accountId, body.integration_ids) : undefined;
    let changed = false;
    const set = <K extends keyof AgentRow>(key: K, value: AgentRow[K] | undefined) => {
      if (value === undefined) return;
      agent[key] = value;
      changed = true;
    };
    set("name", body.name);
    set("instructions", body.instructions);
    set("dataset_ids", datasetIds);
    set("integration_ids", integrationIds);
    set("count", body.count);
    set("num_comments_per_post", body.num_comments_per_post);
    set("schedule", body.schedule);
    if (changed) agent.updated_ms = this.services.clock.now();
    if (body.schedule) this.arm(caller.account, agent);
    return agentView(agent);
  }

  /** Soft delete (D-TA-DELETE): no more cycles; agent and feed read as 404; a running cycle's dataset runs finish. */
  delete(caller: Caller, id: string): void {
    const agent = this.find(caller.account.id, id);
    this.disarm(agent);
    this.tables.agents.softDelete(agent, this.services.clock.now());
  }

  /** Idempotent (D-TA-PAUSE); `next_run_at` becomes null. */
  pause(caller: Caller, id: string): void {
    const agent = this.find(caller.account.id, id);
    if (agent.paused) return;
    agent.paused = true;
    agent.updated_ms = this.services.clock.now();
    this.disarm(agent);
  }

  /** Idempotent; `next_run_at` is recomputed from the schedule. */
  resume(caller: Caller, id: string): void {
    const agent = this.find(caller.account.id, id);
    if (!agent.paused) return;
    agent.paused = false;
    agent.updated_ms = this.services.clock.now();
    this.arm(caller.account, agent);
  }

  /** An out-of-schedule cycle; allowed while paused (D-TA-TRIGGER-PAUSED). */
  trigger(caller: Caller, id: string): TrackingAgentsAgentRun {
    const agent = this.find(caller.account.id, id);
    return agentRunView(this.cycles.start(caller.account, agent, "trigger"));
  }

  /** The alert feed, newest first (D-TA-MESSAGES-ORDER). */
  listMessages(
    caller: Caller,
    id: string,
    q: { limit: number; cursor?: string | undefined },
  ): PageResult<TrackingAgentsAgentMessage> {
    const agent = this.find(caller.account.id, id);
    const page = this.tables.messages.page(
      caller.account.id,
      { limit: q.limit, order: "desc", cursor: q.cursor, scope: { r: "agent_messages", agent: agent.id } },
      undefined,
      { index: "byAgent", parentId: agent.id },
    );
    return { ...page, items: page.items.map(agentMessageView) };
  }

  // ---- scheduler ---------------------------------------------------------------------

  private disarm(agent: AgentRow): void {
    this.timers.get(agent.id)?.();
    this.timers.delete(agent.id);
    agent.next_run_ms = null;
  }

  /** Set the agent's timer for its next slot (nothing while paused or deleted). */
  private arm(account: Account, agent: AgentRow): void {
    this.disarm(agent);
    if (agent.paused || agent.deleted_ms !== null) return;
    const { clock } = this.services;
    const now = clock.now();
    const at = nextRunMs(agent.schedule, now, this.settings.cycleSeconds);
    agent.next_run_ms = at;
    this.timers.set(
      agent.id,
      clock.schedule(at - now, () => this.fire(account, agent)),
    );
  }

  /** A slot came: run the cycle, or record in the feed why it could not start; then arm the next slot. */
  private fire(account: Account, agent: AgentRow): void {
    this.timers.delete(agent.id);
    if (agent.paused || agent.deleted_ms !== null) return;
    try {
      this.cycles.start(account, agent, "schedule");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.cycles.writeMessage(agent, {
        agentName: agent.name,
        instructions: agent.instructions,
        numComments: agent.num_comments_per_post,
        datasets: [],
        newPosts: [],
        failures: [],
        runs: 0,
        pattern: null,
        skipped: skipReason(error),
      });
    }
    this.arm(account, agent);
  }

  /** Set the timer of every live, unpaused agent (after a state restore: timers are not saved). */
  armAll(): void {
    for (const account of this.services.directory.all()) {
      for (const agent of this.tables.agents.live(account.id)) this.arm(account, agent);
    }
  }

  /** Cancel every timer (server shutdown, tests). */
  stop(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }
}

function skipReason(error: ApiError): string {
  switch (error.errorCode) {
    case "tracking_agent_run_in_progress":
      return "the previous cycle is still running.";
    case "dataset_has_no_queries":
      return "none of the agent's datasets has a query to repeat.";
    case "insufficient_credits": {
      const d = error.detail as { required?: string; available?: string };
      return `the balance ($${d.available}) cannot fund the cycle's reservation ($${d.required}).`;
    }
    default:
      return error.message;
  }
}
