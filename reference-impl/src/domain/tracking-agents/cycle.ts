// One agent cycle, the same code for `POST …/trigger` and for the scheduler:
// repeat the latest query of each of the agent's datasets as a dataset run
// with the agent's `count` and `num_comments_per_post`, reserving every run
// all-or-nothing first (402 `insufficient_credits`, nothing started). When
// every dataset run has settled, the agent run completes (or fails when all
// of its dataset runs failed) and the alert message is written.
import type { Account } from "../../platform/accounts.ts";
import { BadRequestError, ConflictError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { DatasetRow, DatasetRunBody, DatasetRunRow } from "../datasets/rows.ts";
import type { DatasetService } from "../datasets/service.ts";
import type { DatasetRunService } from "../datasets/runs.ts";
import type { MentionPools } from "../mentions/pool.ts";
import { collectingRuns, type MentionRecord } from "../mentions/record.ts";
import type { Ledger } from "../../platform/billing/ledger.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Table } from "../../platform/store.ts";
import { composeAlert, type CycleOutcome } from "./alert.ts";
import { findMatchingPattern, type PatternMatchNeeds } from "./pattern-match.ts";
import type { AgentMessageRow, AgentRow, AgentRunRow } from "./rows.ts";
import type { AgentTables } from "./tables.ts";

/**
 * The run body a cycle sends for a dataset: its latest query and settings,
 * with the agent's count and comments, the trailing default window instead
 * of a fixed date range, and sentiment analysis added so the alert's
 * sentiment is measured (D-TA-CYCLE).
 */
export function cycleBody(latest: DatasetRunBody, agent: AgentRow): DatasetRunBody {
  const actions = new Set(latest.content_analysis_actions ?? []);
  actions.add("sentiment");
  const { date_range: _fixedWindow, ...rest } = latest;
  return {
    ...rest,
    count: agent.count,
    num_comments_per_post: agent.num_comments_per_post,
    content_analysis_actions: [...actions],
  };
}

/** Results a dataset run of this body can deliver (a url run is capped by its URLs). */
function runQuantity(body: DatasetRunBody): number {
  return body.search_query.type === "url" ? Math.min(body.count, body.search_query.source_urls.length) : body.count;
}

/** What an agent cycle needs from the composition root (compose.ts). */
export type CycleNeeds = PatternMatchNeeds &
  MentionPools & {
    readonly clock: Clock;
    readonly ledger: Ledger;
    readonly datasets: Pick<DatasetService, "lookup">;
    readonly datasetRuns: Pick<DatasetRunService, "repeatableQuery" | "start">;
    readonly tables: { readonly datasetRuns: Table<DatasetRunRow> };
  };

export class AgentCycles {
  constructor(
    private readonly services: CycleNeeds,
    private readonly tables: AgentTables,
  ) {}

  inProgress(agent: AgentRow): AgentRunRow | undefined {
    const runs = this.tables.runs.childrenOf(agent.account_id, "byAgent", agent.id);
    const last = runs[runs.length - 1];
    return last && last.status.type === "in_progress" ? last : undefined;
  }

  /** Start a cycle or throw 409 / 400 / 402 before anything is created or charged. */
  start(account: Account, agent: AgentRow, origin: AgentRunRow["origin"]): AgentRunRow {
    const { services } = this;
    if (this.inProgress(agent)) {
      throw new ConflictError(
        "tracking_agent_run_in_progress",
        "A cycle of this agent is in progress; poll its dataset runs until they finish, then retry.",
      );
    }
    const plan: { dataset: DatasetRow; body: DatasetRunBody }[] = [];
    for (const id of agent.dataset_ids) {
      const dataset = services.datasets.lookup(account.id, id);
      if (!dataset) continue; // deleted since the agent was configured
      const latest = services.datasetRuns.repeatableQuery(account.id, dataset);
      if (latest) plan.push({ dataset, body: cycleBody(latest, agent) });
    }
    if (agent.dataset_ids.length === 0) {
      throw new BadRequestError(
        "dataset_has_no_queries",
        "The agent has no datasets left (a deleted dataset leaves dataset_ids); add one with PATCH dataset_ids.",
      );
    }
    if (plan.length === 0) {
      throw new BadRequestError(
        "dataset_has_no_queries",
        "None of the agent's datasets has a query to repeat; run a search on one of them first.",
      );
    }
    const reservations = services.ledger.reserveAll(
      account.id,
      plan.map((p) => ({ category: "mention" as const, quantity: runQuantity(p.body) })),
      "insufficient_credits",
    );
    const now = services.clock.now();
    const run: AgentRunRow = {
      id: newId("tar_"),
      account_id: account.id,
      agent_id: agent.id,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      status: { type: "in_progress" },
      dataset_run_ids: [],
      reservations,
      origin,
    };
    this.tables.runs.insert(run);
    agent.last_run_ms = now;

    const settled: DatasetRunRow[] = [];
    const onSettled = (datasetRun: DatasetRunRow) => {
      settled.push(datasetRun);
      if (settled.length === plan.length) this.finish(account, agent, run, settled);
    };
    plan.forEach((p, i) => {
      const row = services.datasetRuns.start(account, p.dataset, p.body, { reservation: reservations[i]!, onSettled });
      run.dataset_run_ids.push(row.id);
    });
    return run;
  }

  /** Posts a dataset run collected that its dataset did not hold before. */
  private newToDataset(accountId: string, datasetRun: DatasetRunRow): MentionRecord[] {
    const pool = this.services.mentions(accountId);
    const out: MentionRecord[] = [];
    for (const record of pool.byRun(datasetRun.id)) {
      const runs = collectingRuns(record);
      const at = runs.indexOf(datasetRun.id);
      const seenBefore = runs
        .slice(0, at)
        .some((id) => this.services.tables.datasetRuns.raw(id)?.dataset_id === datasetRun.dataset_id);
      if (!seenBefore) out.push(record);
    }
    return out;
  }

  private finish(account: Account, agent: AgentRow, run: AgentRunRow, datasetRuns: DatasetRunRow[]): void {
    const now = this.services.clock.now();
    const completed = datasetRuns.filter((r) => r.status.type === "completed");
    const byKey = new Map<string, MentionRecord>();
    for (const r of completed) for (const rec of this.newToDataset(account.id, r)) byKey.set(rec.key, rec);
    const newPosts = [...byKey.values()];
    const pool = this.services.mentions(account.id);
    const collected = completed.flatMap((r) => pool.byRun(r.id));
    const datasets = agent.dataset_ids
      .map((id) => this.services.datasets.lookup(account.id, id))
      .filter((d): d is DatasetRow => !!d)
      .map((d) => ({ id: d.id, name: d.name }));
    this.writeMessage(agent, {
      agentName: agent.name,
      instructions: agent.instructions,
      numComments: agent.num_comments_per_post,
      datasets,
      newPosts,
      failures: datasetRuns
        .filter((r) => r.status.type === "failed")
        .map((r) => ({ datasetId: r.dataset_id, message: r.status.error_message ?? "The dataset run failed." })),
      runs: datasetRuns.length,
      pattern: findMatchingPattern(this.services, account.id, agent.dataset_ids, collected),
    });
    run.status = { type: completed.length > 0 ? "completed" : "failed" };
    run.updated_ms = now;
  }

  /** Write the alert of a cycle (or of a scheduled cycle that could not start). */
  writeMessage(agent: AgentRow, outcome: CycleOutcome): AgentMessageRow {
    const pool = this.services.mentions(agent.account_id);
    const content = composeAlert(outcome, (source, id) => pool.get(`${source}:${id}`) !== undefined);
    const message: AgentMessageRow = {
      id: newId("tam_"),
      account_id: agent.account_id,
      agent_id: agent.id,
      agent_name: agent.name,
      created_ms: this.services.clock.now(),
      deleted_ms: null,
      ...content,
    };
    return this.tables.messages.insert(message);
  }
}
