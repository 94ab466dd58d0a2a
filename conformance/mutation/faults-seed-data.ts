// Single-rule faults for the seed rules the ledger (conformance/src/seed-ledger/)
// judges with the checks added for them: data. Each breaks one rule the seed
// states; the named check must fail behind it (mutation harness).
import type { Fault } from "./proxy.ts";

export const seedDataFaults: Fault[] = [];
