// Everything the resources share, built once per app.
import type { AccountDirectory } from "../platform/accounts.ts";
import type { Ledger } from "../platform/billing/ledger.ts";
import type { Clock } from "../platform/clock.ts";
import type { Pipeline } from "../platform/pipeline.ts";
import { Table } from "../platform/store.ts";
import type { DatasetRow } from "./datasets.ts";
import type { RunRow } from "./dataset-runs.ts";
import { MentionIndex } from "./mention-index.ts";

export class Services {
  readonly datasets = new Table<DatasetRow>();
  readonly runs = new Table<RunRow>();
  private readonly mentionIndexes = new Map<string, MentionIndex>();

  constructor(
    readonly clock: Clock,
    readonly directory: AccountDirectory,
    readonly ledger: Ledger,
    readonly pipeline: Pipeline,
  ) {}

  mentions(accountId: string): MentionIndex {
    let index = this.mentionIndexes.get(accountId);
    if (!index) this.mentionIndexes.set(accountId, (index = new MentionIndex()));
    return index;
  }
}
