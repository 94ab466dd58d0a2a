// What one kit run shares between its checks: the run id, the (scoped)
// contract, the HTTP client that records every exchange, the coverage
// ledger, what the kit created (deleted at the end), the scenarios several
// checks share, the budget and what the run spent.
import type { Contract } from "../contract.ts";
import type { HttpClient, KeyRole } from "../http.ts";
import { Ledger } from "../ledger.ts";
import type { Settings } from "../types.ts";
import { Budget } from "./budget.ts";
import { SpendTracker } from "./spend.ts";

/** Something the kit created: deleted with `key` at the end of the run. */
export interface Created {
  kind: string;
  key: KeyRole;
}

export interface RunSession {
  readonly runId: string;
  readonly settings: Settings;
  readonly contract: Contract;
  readonly client: HttpClient;
  readonly ledger: Ledger;
  /** what the kit created, by the path that deletes it (newest last) */
  readonly created: Map<string, Created>;
  /** a scenario several checks share, by name: started once per run */
  readonly shared: Map<string, Promise<unknown>>;
  readonly budget: Budget;
  /** the main account's balance around the checks that commit money */
  readonly spend: SpendTracker;
  log(line: string): void;
}

/**
 * The run's shared scenarios (ctx.shared): a Map that also tells the budget
 * guard which check needs which scenario, and while a scenario runs, that its
 * commitments are the scenario's.
 */
class SharedScenarios extends Map<string, Promise<unknown>> {
  constructor(private readonly budget: Budget) {
    super();
  }

  override get(name: string): Promise<unknown> | undefined {
    const p = super.get(name);
    if (p) this.budget.use(name);
    return p;
  }

  override set(name: string, p: Promise<unknown>): this {
    super.set(name, p);
    this.budget.scenario(name, p);
    return this;
  }
}

/** A fresh session; the ledger is built from the contract as it stands now (after the served-groups preflight). */
export function openSession(
  settings: Settings,
  contract: Contract,
  client: HttpClient,
  runId: string,
  log: (line: string) => void,
): RunSession {
  const budget = new Budget(settings.budgetUsd, () => client.exchanges.length, settings.negativeRoomUsd);
  return {
    runId,
    settings,
    contract,
    client,
    ledger: new Ledger(contract),
    created: new Map(),
    shared: new SharedScenarios(budget),
    budget,
    spend: new SpendTracker(client, budget, settings.profile !== "readonly" && !settings.mock),
    log,
  };
}
