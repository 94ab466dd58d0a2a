// Seeded deterministic randomness (pure-rand): the same seed always draws the
// same numbers. A platform mechanism: the simulators draw posts and profiles
// from it (the same query gives the same posts), the development backend its
// latency and fault rates.
import { createHash } from "node:crypto";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";

export function seedOf(...parts: (string | number)[]): number {
  return createHash("sha256").update(parts.join("\u0000")).digest().readInt32LE(0);
}

export class Random {
  private readonly rng;
  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }
  int(from: number, to: number): number {
    return uniformInt(this.rng, from, to);
  }
  float(): number {
    return uniformFloat64(this.rng);
  }
  chance(p: number): boolean {
    return this.float() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  /** Log-uniform integer in [from, to], for heavy-tailed counts. */
  logInt(from: number, to: number): number {
    const lo = Math.log(Math.max(1, from));
    const hi = Math.log(Math.max(1, to));
    return Math.round(Math.exp(lo + (hi - lo) * this.float()));
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.float() * total;
    for (const [value, w] of entries) {
      x -= w;
      if (x < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }
  token(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}
