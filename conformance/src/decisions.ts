// Reads the decision table (spec/DECISIONS.md) so the kit can prove that
// every strict or lenient decision has a check enforcing it.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface DecisionRow {
  id: string;
  section: string;
  kit: string;
  /** strict or lenient, i.e. the kit owes a check */
  checkable: boolean;
}

export const decisionsPath = fileURLToPath(new URL("../../spec/DECISIONS.md", import.meta.url));

/** Every row of the decision tables: `| D-… | point | seed | decision | kit |`. */
export function readDecisions(path = decisionsPath): DecisionRow[] {
  if (!existsSync(path)) return [];
  const rows: DecisionRow[] = [];
  let section = "";
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const m = /^\|\s*(D-[A-Z0-9-]+)\s*\|/.exec(line);
    if (!m) continue;
    // escaped pipes (\|) live inside cells; split on the others
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    const kit = cells.at(-1) ?? "";
    const exempt = /not checked|not tested/i.test(kit);
    rows.push({ id: m[1], section, kit, checkable: !exempt && /strict|lenient/i.test(kit) });
  }
  return rows;
}
