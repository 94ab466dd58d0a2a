// Which mention chunks a save must write. Records of a pool change only when
// a run touches them: a dataset run (or an agent cycle's) upserts the posts
// it collected, a custom parameter run writes values on its dataset's posts,
// and new posts join at the end. Each of those runs' rows gets `updated_ms`
// when it moves, so the chunks to rewrite are: those from the last saved
// size on, those holding posts of dataset runs that moved since the last
// save (`byRun`), and those holding posts of a dataset a custom parameter run
// visited since then. Pattern assignments are a section of their own.
import type { Services } from "../compose.ts";
import type { StateImage } from "./image.ts";
import { CHUNK, chunkName } from "./sections.ts";
import type { ChunkPlan } from "./state-file.ts";

/**
 * The save after a reset: the file still holds the pools from before it, so
 * every chunk is written — the ones unchanged since the reset from the
 * scenario's own serialized bytes, the changed ones (`plan`) serialized anew.
 */
export function everyChunkFromPrebuilt(
  plan: ChunkPlan,
  image: StateImage,
  prebuilt: ReadonlyMap<string, Uint8Array>,
): { plan: ChunkPlan; prebuilt: Map<string, Uint8Array> } {
  const usable = new Map(prebuilt);
  for (const { accountId, records } of image.mentions) {
    const changed = plan.get(accountId) ?? "all";
    for (let c = 0; c * CHUNK < records.length; c++)
      if (changed === "all" || changed.has(c)) usable.delete(chunkName(accountId, c));
  }
  return { plan: new Map(image.mentions.map((m) => [m.accountId, "all" as const])), prebuilt: usable };
}

export class MentionChanges {
  /** Pool size per account at the last save; absent: write the whole pool. */
  private saved = new Map<string, number>();
  private sinceMs = -Infinity;

  /** After a restore from the file, or a save: the file holds these pools as they are. */
  markSaved(image: StateImage): void {
    this.saved = new Map(image.mentions.map((m) => [m.accountId, m.records.length]));
    this.sinceMs = image.savedAtMs;
  }

  plan(services: Services, image: StateImage): ChunkPlan {
    const plan: ChunkPlan = new Map();
    const touched = new Map<string, Set<number>>();
    const chunksOf = (accountId: string) => {
      let set = touched.get(accountId);
      if (!set) touched.set(accountId, (set = new Set()));
      return set;
    };
    for (const { accountId, records } of image.mentions) {
      const savedSize = this.saved.get(accountId);
      if (savedSize === undefined) {
        plan.set(accountId, "all");
        continue;
      }
      const set = chunksOf(accountId);
      // New posts joined at the end: from the chunk the saved size ended in.
      if (records.length > savedSize)
        for (let c = Math.floor(savedSize / CHUNK); c * CHUNK < records.length; c++) set.add(c);
      plan.set(accountId, set);
    }
    const records = new Map(image.mentions.map((m) => [m.accountId, m.records]));
    for (const run of services.tables.datasetRuns.everyRow()) {
      if (run.updated_ms < this.sinceMs || plan.get(run.account_id) === "all") continue;
      const all = records.get(run.account_id) ?? [];
      for (const r of services.mentions(run.account_id).byRun(run.id)) {
        // `doc` is the post's place in the pool; checked, so a pool that ever numbered otherwise is written whole.
        if (all[r.doc] !== r) {
          plan.set(run.account_id, "all");
          break;
        }
        chunksOf(run.account_id).add(Math.floor(r.doc / CHUNK));
      }
    }
    for (const run of services.tables.customParameterRuns.everyRow()) {
      if (run.updated_ms < this.sinceMs || plan.get(run.account_id) === "all") continue;
      const set = chunksOf(run.account_id);
      const all = records.get(run.account_id) ?? [];
      // The dataset's own member list, not a walk over the whole pool (a turn of its own at 1M).
      for (const r of services.mentions(run.account_id).inDataset(run.dataset_id))
        if (r.doc < all.length) set.add(Math.floor(r.doc / CHUNK));
    }
    return plan;
  }
}
