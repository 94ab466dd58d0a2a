/**
 * The datasets that collected a post, with the largest extrapolation
 * coefficient per dataset. Nearly every post has one dataset, so the first
 * is held inline and a Map exists only from the second on (an empty or
 * one-entry Map per post was 0.2 KB of each mention). Reads the
 * same as a Map: `has`, `get`, `set`, `keys()` in insertion order, `size`.
 */
export class DatasetCoefficients {
  private firstId: string | undefined;
  private firstCoefficient = 0;
  private more: Map<string, number> | undefined;
  /** Shared between records (see `with`): never changed in place. */
  private shared = false;

  /**
   * Nearly every post has one dataset with the coefficient of the run that
   * collected it, so records share one instance per (dataset, coefficient)
   * instead of holding 48 B each. At most SHARED_LIMIT are kept.
   */
  private static readonly sharedOnes = new Map<string, DatasetCoefficients>();
  private static readonly SHARED_LIMIT = 1 << 16;

  /** No dataset yet: what a record starts from before its first `with`. */
  static readonly none: DatasetCoefficients = (() => {
    const none = new DatasetCoefficients();
    none.shared = true;
    return none;
  })();

  static one(id: string, coefficient: number): DatasetCoefficients {
    const key = `${coefficient}\u0000${id}`;
    let one = DatasetCoefficients.sharedOnes.get(key);
    if (!one) {
      one = new DatasetCoefficients().set(id, coefficient);
      one.shared = true;
      if (DatasetCoefficients.sharedOnes.size < DatasetCoefficients.SHARED_LIMIT)
        DatasetCoefficients.sharedOnes.set(key, one);
    }
    return one;
  }

  /** These coefficients with `id` set to `coefficient`: a shared one-dataset instance, or an own copy once there are two. */
  with(id: string, coefficient: number): DatasetCoefficients {
    if (this.size === 0 || (this.size === 1 && this.firstId === id)) return DatasetCoefficients.one(id, coefficient);
    const own = this.shared ? this.copy() : this;
    return own.set(id, coefficient);
  }

  private copy(): DatasetCoefficients {
    const out = new DatasetCoefficients();
    for (const id of this.keys()) out.set(id, this.get(id)!);
    return out;
  }

  get size(): number {
    return (this.firstId === undefined ? 0 : 1) + (this.more?.size ?? 0);
  }

  has(id: string): boolean {
    return this.firstId === id || (this.more !== undefined && this.more.has(id));
  }

  get(id: string): number | undefined {
    return this.firstId === id ? this.firstCoefficient : this.more?.get(id);
  }

  set(id: string, coefficient: number): this {
    if (this.shared) throw new Error("shared DatasetCoefficients are never changed in place; use with()");
    if (this.firstId === undefined || this.firstId === id) {
      this.firstId = id;
      this.firstCoefficient = coefficient;
    } else {
      (this.more ??= new Map()).set(id, coefficient);
    }
    return this;
  }

  *keys(): IterableIterator<string> {
    if (this.firstId !== undefined) yield this.firstId;
    if (this.more) yield* this.more.keys();
  }
}
