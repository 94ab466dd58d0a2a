// The pool's full-text index (text-index.ts, D-REF-SEARCH-COST), created on
// the first `q` and from then on fed the posts that landed since, a slice at
// a time, so building it over a large pool never holds the event loop.
import { nextSliceTurn, sliceBudgetSpent } from "../../platform/pipeline.ts";
import type { MentionRecord } from "./record.ts";
import { TextIndex, type SearchMode, type TextHits } from "./text-index.ts";

/** Posts added to the text index per event-loop turn while catching up. */
const TEXT_INDEX_SLICE = 1000;

/** The texts a post is found by: title, text, and its author's names. */
function textFields(r: MentionRecord): (string | null | undefined)[] {
  return [r.post.title, r.post.text, `${r.post.author.display_name} ${r.post.author.username}`];
}

export class PoolText {
  private text: TextIndex<MentionRecord> | undefined;
  private textWork: Promise<void> | undefined;
  /** Posts not in the text index yet, in pool order, from `unindexedFrom` on. */
  private unindexed: MentionRecord[] = [];
  private unindexedFrom = 0;

  /** Slices fed by catchUp so far (tests count slices, never time them). */
  slices = 0;

  /** Whether the index exists yet (once it does, the pool's upkeep keeps it current). */
  get started(): boolean {
    return this.text !== undefined;
  }

  /** A post that landed: indexed by the next catch-up or search. Documents enter the index in pool order. */
  add(record: MentionRecord): void {
    this.unindexed.push(record);
  }

  /**
   * The same posts as `search`, one query term at a time with an event-loop
   * turn between terms.
   */
  async searchSliced(q: string, mode: SearchMode): Promise<TextHits<MentionRecord>> {
    await this.catchUp();
    return this.index().searchSliced(q, mode);
  }

  /**
   * Posts matching a free-text query (D-REF-SEARCH-COST): semantic = OR over
   * at most MAX_QUERY_TERMS distinct terms of 2+ characters, each widened by
   * prefix (3+ characters) and fuzzy matching (4-24 characters, at most 2
   * edits); keyword = AND over every distinct term, exact. A one-letter
   * prefix or a long fuzzy term would walk the whole vocabulary (250
   * one-letter words once exhausted the heap).
   */
  search(q: string, mode: SearchMode): TextHits<MentionRecord> {
    return this.index().search(q, mode);
  }

  /**
   * Feed what landed since into the text index, at most TEXT_INDEX_SLICE
   * posts or the loop's slice budget at a time, with event-loop turns
   * between, so building the index over a large pool (the first `q` or
   * assistant turn) never blocks other tenants. A synchronous search
   * meanwhile still sees everything (index() adds whatever is left).
   */
  catchUp(): Promise<void> {
    // One catch-up at a time: the background upkeep and a search share it.
    return (this.textWork ??= this.feed().finally(() => {
      this.textWork = undefined;
    }));
  }

  private async feed(): Promise<void> {
    const text = this.ensureIndex();
    while (this.unindexedFrom < this.unindexed.length) {
      // Advance a cursor rather than splice: removing each slice from the
      // front of a 1M-entry array moved the rest of it every time.
      // At most TEXT_INDEX_SLICE posts, and no more than the loop
      // iteration's budget for sliced work, which it shares with runs and
      // sort views (platform/pipeline.ts): at 1M posts a slice of 1,000
      // took tens of ms on a busy machine.
      const limit = Math.min(this.unindexedFrom + TEXT_INDEX_SLICE, this.unindexed.length);
      let end = this.unindexedFrom;
      while (end < limit) {
        text.add(this.unindexed[end]!, textFields(this.unindexed[end]!));
        end++;
        if (end % 64 === 0 && sliceBudgetSpent()) break;
      }
      this.unindexedFrom = end;
      this.slices++;
      if (end < this.unindexed.length) await nextSliceTurn();
    }
    this.unindexed = [];
    this.unindexedFrom = 0;
  }

  /** Size of the text index once it exists (the scale bench reports it). */
  stats(): { documents: number; terms: number; postings: number } | undefined {
    return this.text && { documents: this.text.size, terms: this.text.terms, postings: this.text.postings };
  }

  /** The text index, created on first use and fed what landed since. */
  private index(): TextIndex<MentionRecord> {
    const text = this.ensureIndex();
    for (let i = this.unindexedFrom; i < this.unindexed.length; i++)
      text.add(this.unindexed[i]!, textFields(this.unindexed[i]!));
    this.unindexed = [];
    this.unindexedFrom = 0;
    return text;
  }

  private ensureIndex(): TextIndex<MentionRecord> {
    return (this.text ??= new TextIndex<MentionRecord>());
  }
}
