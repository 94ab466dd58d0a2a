// In-memory, per-account tables with soft delete. Rows are kept in insertion
// order, which is also created_at order, so lists paginate by keyset without
// re-sorting. A foreign, missing or soft-deleted id reads as absent.
import { paginate, type PageRequest, type PageResult, type SortKey } from "./pagination.ts";

export interface Row {
  id: string;
  account_id: string;
  created_ms: number;
  deleted_ms: number | null;
}

export class Table<T extends Row> {
  private readonly byId = new Map<string, T>();
  private readonly byAccount = new Map<string, T[]>();

  insert(row: T): T {
    this.byId.set(row.id, row);
    let rows = this.byAccount.get(row.account_id);
    if (!rows) this.byAccount.set(row.account_id, (rows = []));
    // Keep ascending (created_ms, id) even if a caller inserts out of order.
    let i = rows.length;
    while (i > 0 && compareRow(rows[i - 1]!, row) > 0) i--;
    rows.splice(i, 0, row);
    return row;
  }

  /** The live row of this account, or undefined. */
  get(accountId: string, id: string): T | undefined {
    const row = this.byId.get(id);
    if (!row || row.account_id !== accountId || row.deleted_ms !== null) return undefined;
    return row;
  }

  /** Any row regardless of account or deletion (internal use). */
  raw(id: string): T | undefined {
    return this.byId.get(id);
  }

  live(accountId: string, where: (row: T) => boolean = () => true): T[] {
    return (this.byAccount.get(accountId) ?? []).filter((r) => r.deleted_ms === null && where(r));
  }

  softDelete(row: T, atMs: number): void {
    row.deleted_ms = atMs;
  }

  page(accountId: string, request: PageRequest, where: (row: T) => boolean = () => true): PageResult<T> {
    const rows = this.byAccount.get(accountId) ?? [];
    return paginate(rows, rowKey, request, (r) => r.deleted_ms === null && where(r));
  }
}

export function rowKey(row: Row): SortKey {
  return [row.created_ms, row.id];
}

function compareRow(a: Row, b: Row): number {
  if (a.created_ms !== b.created_ms) return a.created_ms - b.created_ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
