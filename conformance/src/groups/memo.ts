import type { Contract } from "../contract.ts";
import type { Group } from "./types.ts";

const memo = new WeakMap<Contract, Group[]>();

/** Descriptors are derived once per loaded (and scoped) contract. */
export function derivedMemo(contract: Contract, make: () => Group[]): Group[] {
  let g = memo.get(contract);
  if (!g) {
    g = make();
    memo.set(contract, g);
  }
  return g;
}
