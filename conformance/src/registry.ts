// The check registry: every file of checks/ is one check, named after its id,
// whose default export is a `defineCheck(...)`. Nothing lists the checks by
// hand, so adding a check is adding its file. The order active checks run in
// comes from their data: `phase` (PHASES in types.ts), then `after`, then id.
import { readdirSync } from "node:fs";
import { PHASES, type ActiveCheck, type Check } from "./types.ts";

const folder = new URL("./checks/", import.meta.url);
// `.ts` in the repository; `.js` in the published package (dist/, transpiled by scripts/bundle-contract.mjs)
const MODULE = /\.(ts|js)$/;
const files = readdirSync(folder)
  .filter((f) => MODULE.test(f) && !f.endsWith(".d.ts"))
  .sort();
const loaded = await Promise.all(
  files.map(async (f) => ({ file: f, module: (await import(new URL(f, folder).href)) as { default?: Check } })),
);

/** Every check: active checks in run order, then response checks by id. */
export const allChecks: Check[] = ordered(
  loaded.map(({ file, module }) => {
    const check = module.default;
    if (!check || check.id !== file.replace(MODULE, ""))
      throw new Error(
        `checks/${file}: the default export must be defineCheck({ id: "${file.replace(MODULE, "")}", … })`,
      );
    return check;
  }),
);

export { trafficDriver } from "./checks/support/traffic.ts";

function ordered(checks: Check[]): Check[] {
  const active = checks.filter((c): c is ActiveCheck => c.kind === "active");
  const response = checks.filter((c) => c.kind === "response").sort((a, b) => a.id.localeCompare(b.id));
  const runOrder = PHASES.flatMap((phase) => afterFirst(active.filter((c) => c.phase === phase)));
  return [...runOrder, ...response];
}

/** `after` entries name ids, or id prefixes ending in `*` ("audience-*"). */
function runsAfter(check: ActiveCheck, other: ActiveCheck): boolean {
  return (check.after ?? []).some((a) =>
    a.endsWith("*") ? other.id !== check.id && other.id.startsWith(a.slice(0, -1)) : other.id === a,
  );
}

/** Within one phase: by id, except that a check waits for the checks it names in `after`. */
function afterFirst(phase: ActiveCheck[]): ActiveCheck[] {
  const waiting = [...phase].sort((a, b) => a.id.localeCompare(b.id));
  const out: ActiveCheck[] = [];
  while (waiting.length) {
    const i = waiting.findIndex((c) => !waiting.some((o) => o !== c && runsAfter(c, o)));
    if (i < 0) throw new Error(`checks: a circle in \`after\`: ${waiting.map((c) => c.id).join(", ")}`);
    out.push(...waiting.splice(i, 1));
  }
  return out;
}
