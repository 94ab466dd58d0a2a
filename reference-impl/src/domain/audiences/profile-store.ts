// Profiles of one account: one row per (audience dataset, person), so a
// person reached again by a later run of the same audience dataset is
// refreshed in place (D-AUD-PROFILE-RUN). Arrays sorted by each sort key are
// rebuilt lazily after a change and back keyset pagination.
import type { AudiencesAudienceProfileSort } from "../../../../generated/client/types.gen.ts";
import { newId } from "../../platform/ids.ts";
import type { SortKey } from "../../platform/pagination.ts";
import { searchableText } from "./profile-filters.ts";
import type { ProfileFields } from "./profile-fields.ts";
import type { ProfileRow } from "./rows.ts";

export type ProfileSort = AudiencesAudienceProfileSort;

export function profileSortKey(sort: ProfileSort): (row: ProfileRow) => SortKey {
  return sort === "created_at" ? (r) => [r.created_ms, r.id] : (r) => [r.run_at_ms, r.id];
}

class AccountProfiles {
  readonly byPerson = new Map<string, ProfileRow>();
  readonly countByDataset = new Map<string, number>();
  private readonly sorted = new Map<ProfileSort, ProfileRow[]>();

  sortedBy(sort: ProfileSort): readonly ProfileRow[] {
    let rows = this.sorted.get(sort);
    if (!rows) {
      const keyOf = profileSortKey(sort);
      const decorated = [...this.byPerson.values()].map((r) => ({ r, k: keyOf(r) }));
      decorated.sort((a, b) =>
        a.k[0] !== b.k[0] ? (a.k[0] < b.k[0] ? -1 : 1) : a.k[1] < b.k[1] ? -1 : a.k[1] > b.k[1] ? 1 : 0,
      );
      rows = decorated.map((d) => d.r);
      this.sorted.set(sort, rows);
    }
    return rows;
  }

  changed(): void {
    this.sorted.clear();
  }
}

export interface CollectedProfile {
  personKey: string;
  fields: ProfileFields;
}

export class ProfileStore {
  private readonly accounts = new Map<string, AccountProfiles>();

  private of(accountId: string): AccountProfiles {
    let a = this.accounts.get(accountId);
    if (!a) this.accounts.set(accountId, (a = new AccountProfiles()));
    return a;
  }

  /** Profiles in one audience dataset (distinct people across its runs). */
  count(accountId: string, audienceDatasetId: string): number {
    return this.of(accountId).countByDataset.get(audienceDatasetId) ?? 0;
  }

  /**
   * Store what a run collected, all at once: new people get a row, people
   * already in the audience dataset are refreshed and move to this run.
   */
  save(
    accountId: string,
    audienceDatasetId: string,
    run: { id: string; created_ms: number },
    collected: readonly CollectedProfile[],
    nowMs: number,
  ): void {
    const a = this.of(accountId);
    let added = 0;
    for (const c of collected) {
      const key = `${audienceDatasetId}\u0000${c.personKey}`;
      const existing = a.byPerson.get(key);
      if (existing) {
        existing.fields = c.fields;
        existing.run_id = run.id;
        existing.run_at_ms = run.created_ms;
        existing.searchable = searchableText(c.fields);
        continue;
      }
      a.byPerson.set(key, {
        id: newId("ap_"),
        account_id: accountId,
        created_ms: nowMs,
        deleted_ms: null,
        audience_dataset_id: audienceDatasetId,
        person_key: c.personKey,
        run_id: run.id,
        run_at_ms: run.created_ms,
        fields: c.fields,
        searchable: searchableText(c.fields),
      });
      added++;
    }
    a.countByDataset.set(audienceDatasetId, (a.countByDataset.get(audienceDatasetId) ?? 0) + added);
    a.changed();
  }

  sortedBy(accountId: string, sort: ProfileSort): readonly ProfileRow[] {
    return this.of(accountId).sortedBy(sort);
  }

  /** Every profile row by account (state snapshots, --state). */
  snapshot(): { accountId: string; rows: ProfileRow[]; counts: [string, number][] }[] {
    return [...this.accounts].map(([accountId, a]) => ({
      accountId,
      rows: [...a.byPerson.values()],
      counts: [...a.countByDataset],
    }));
  }

  /** Load what `snapshot` returned (into an empty store). */
  restore(image: ReturnType<ProfileStore["snapshot"]>): void {
    for (const { accountId, rows, counts } of image) {
      const a = this.of(accountId);
      for (const r of rows) a.byPerson.set(`${r.audience_dataset_id}\u0000${r.person_key}`, r);
      for (const [id, n] of counts) a.countByDataset.set(id, n);
      a.changed();
    }
  }
}
