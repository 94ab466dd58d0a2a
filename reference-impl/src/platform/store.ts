// In-memory, per-account tables with soft delete. Rows are kept in insertion
// order, which is also created_at order, so lists paginate by keyset without
// re-sorting. A foreign, missing or soft-deleted id reads as absent; rows
// that carry a `user_id` can also be read seat-scoped (chats). Secondary
// indexes keep children of a parent (runs of a dataset) in created order, so
// listing them never scans the account's whole table.
import { paginate, type PageRequest, type PageResult, type SortKey } from "./pagination.ts";

export interface Row {
  id: string;
  account_id: string;
  created_ms: number;
  deleted_ms: number | null;
}

/** A row owned by one seat of the account (chats are private to their seat). */
export interface SeatRow extends Row {
  user_id: string;
}

export interface TableOptions<T> {
  /** Secondary indexes: name -> the parent key of a row. */
  indexes?: Record<string, (row: T) => string>;
}

export class Table<T extends Row> {
  private readonly byId = new Map<string, T>();
  private readonly byAccount = new Map<string, T[]>();
  private readonly indexes = new Map<string, { key: (row: T) => string; rows: Map<string, T[]> }>();

  constructor(options: TableOptions<T> = {}) {
    for (const [name, key] of Object.entries(options.indexes ?? {})) this.indexes.set(name, { key, rows: new Map() });
  }

  insert(row: T): T {
    this.byId.set(row.id, row);
    let rows = this.byAccount.get(row.account_id);
    if (!rows) this.byAccount.set(row.account_id, (rows = []));
    insertSorted(rows, row);
    for (const index of this.indexes.values()) {
      const parent = `${row.account_id}\u0000${index.key(row)}`;
      let children = index.rows.get(parent);
      if (!children) index.rows.set(parent, (children = []));
      insertSorted(children, row);
    }
    return row;
  }

  /** Live rows of one parent through a secondary index, oldest first. */
  childrenOf(accountId: string, index: string, parentId: string): T[] {
    return this.indexed(accountId, index, parentId).filter((r) => r.deleted_ms === null);
  }

  private indexed(accountId: string, index: string, parentId: string): T[] {
    const idx = this.indexes.get(index);
    if (!idx) throw new Error(`no index ${index}`);
    return idx.rows.get(`${accountId}\u0000${parentId}`) ?? [];
  }

  /** The live row if it belongs to this account and seat (others read as absent). */
  getForSeat(accountId: string, userId: string, id: string): (T & SeatRow) | undefined {
    const row = this.get(accountId, id) as (T & Partial<SeatRow>) | undefined;
    return row && row.user_id === userId ? (row as T & SeatRow) : undefined;
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

  /** Every row of every account, soft-deleted ones included, in insertion order (state snapshots). */
  everyRow(): T[] {
    return [...this.byId.values()];
  }

  live(accountId: string, where: (row: T) => boolean = () => true): T[] {
    return (this.byAccount.get(accountId) ?? []).filter((r) => r.deleted_ms === null && where(r));
  }

  softDelete(row: T, atMs: number): void {
    row.deleted_ms = atMs;
  }

  /**
   * A keyset page of live rows by (created_at, id). With `within`, only the
   * children of one parent are walked (no scan of the whole account).
   */
  page(
    accountId: string,
    request: PageRequest,
    where: (row: T) => boolean = () => true,
    within?: { index: string; parentId: string },
  ): PageResult<T> {
    const rows = within
      ? this.indexed(accountId, within.index, within.parentId)
      : (this.byAccount.get(accountId) ?? []);
    return paginate(rows, rowKey, request, (r) => r.deleted_ms === null && where(r));
  }
}

// Keep ascending (created_ms, id) even if a caller inserts out of order.
function insertSorted<T extends Row>(rows: T[], row: T): void {
  let i = rows.length;
  while (i > 0 && compareRow(rows[i - 1]!, row) > 0) i--;
  rows.splice(i, 0, row);
}

export function rowKey(row: Row): SortKey {
  return [row.created_ms, row.id];
}

function compareRow(a: Row, b: Row): number {
  if (a.created_ms !== b.created_ms) return a.created_ms - b.created_ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
