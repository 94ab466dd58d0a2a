// --only and --exclude: which checks a run selects. Both take check ids and
// group names, comma or space separated, given once or repeated. A group is
// one of the run's phases (requests, resources, lists, billing, groups,
// isolation, rate-limit, mcp), `response` (the checks that judge recorded
// traffic), or a resource group of the contract (datasets, audiences, …):
// every check that needs one of that group's operations.
import { groupSpecs } from "../groups/index.ts";
import { UsageError } from "../preflight.ts";
import { allChecks } from "../registry.ts";
import { PHASES, type Check } from "../types.ts";

/** Every group name a selector may use, with the checks it selects. */
export function checkGroups(checks: Check[] = allChecks): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const add = (group: string, id: string) => groups.set(group, [...(groups.get(group) ?? []), id]);
  for (const phase of PHASES) groups.set(phase, []);
  groups.set("response", []);
  for (const spec of groupSpecs) groups.set(spec.id, []);
  for (const c of checks) {
    add(c.kind === "active" ? c.phase : "response", c.id);
    const paths = (c.requires ?? []).map((r) => r.split(" ").at(-1) ?? "");
    for (const spec of groupSpecs)
      if (paths.some((p) => p === spec.base || p.startsWith(`${spec.base}/`))) add(spec.id, c.id);
  }
  return groups;
}

/** Check ids named by the selectors (ids or group names); a selector that names nothing is a usage error. */
function expand(flag: string, selectors: string[], checks: Check[]): Set<string> {
  const groups = checkGroups(checks);
  const ids = new Set(checks.map((c) => c.id));
  const out = new Set<string>();
  const unknown: string[] = [];
  for (const s of selectors) {
    if (ids.has(s)) out.add(s);
    else if (groups.has(s)) for (const id of groups.get(s)!) out.add(id);
    else unknown.push(s);
  }
  if (unknown.length)
    throw new UsageError(
      `${flag}: unknown check id(s) or group(s): ${unknown.join(", ")} (check ids: --list; groups: ${[...groups.keys()].join(", ")})`,
    );
  return out;
}

/**
 * The ids a run with these --only and --exclude selects, in registry order,
 * or undefined for "every check" (neither given). Excluding wins over
 * including; a selection that leaves no check is a usage error.
 */
export function selectedIds(
  only: string[] | undefined,
  exclude: string[] | undefined,
  checks: Check[] = allChecks,
): string[] | undefined {
  if (!only?.length && !exclude?.length) return undefined;
  const included = only?.length ? expand("--only", only, checks) : new Set(checks.map((c) => c.id));
  const excluded = exclude?.length ? expand("--exclude", exclude, checks) : new Set<string>();
  const ids = checks.map((c) => c.id).filter((id) => included.has(id) && !excluded.has(id));
  if (!ids.length)
    throw new UsageError(
      `--only ${only?.join(",") ?? "(all)"} --exclude ${exclude?.join(",") ?? "(none)"} selects no check`,
    );
  return ids;
}
