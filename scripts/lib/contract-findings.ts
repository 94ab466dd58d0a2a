// From changes to findings: a change is what one operation sees, a finding is
// one changed element with every operation that reaches it, the severity the
// seed's versioning rules give it, and the reason. Findings come out sorted
// and counted.
import { MCP_GROUP, type Group } from "./contract-policy.ts";
import type { Change, DiffReport, Finding, Kind, Severity } from "./contract-diff-types.ts";

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const KIND_ORDER: Record<Kind, number> = { breaking: 0, unclassified: 1, additive: 2, compatible: 3 };

/** The findings of a diff's changes; a removed error code is reported once, as itself (`goneCodes`). */
export function findingsOf(changes: Change[], goneCodes: string[]): Finding[] {
  return foldMcp(aggregate(pairRenames(dropRedundantRequired(changes))), goneCodes);
}

/**
 * A field removed or added takes its `required` entry with it: the entry is
 * folded into the field's finding (a new field that is required at once is a
 * `required-field-added`).
 */
function dropRedundantRequired(changes: Change[]): Change[] {
  const fields = new Map(changes.filter((r) => r.field).map((r) => [`${r.operation}|${r.subject}`, r]));
  return changes.filter((r) => {
    if (r.rule !== "field-made-required" && r.rule !== "field-made-optional") return true;
    const name = r.change.match(/^`([^`]+)`/)?.[1];
    const field = name ? fields.get(`${r.operation}|${r.subject} › ${name}`) : undefined;
    if (!field) return true;
    if (field.rule === "field-added" && r.rule === "field-made-required") {
      field.rule = "required-field-added";
      field.change = `required field \`${name}\` added`;
      if (r.kind === "breaking") field.kind = "breaking";
    }
    return false;
  });
}

/**
 * One field removed and one added under the same parent of the same operation
 * is reported as a rename (the usual edit), so the author reads one line.
 */
function pairRenames(changes: Change[]): Change[] {
  const byParent = new Map<string, Change[]>();
  for (const r of changes) if (r.field) byParent.set(r.field.parent, [...(byParent.get(r.field.parent) ?? []), r]);
  const drop = new Set<Change>();
  const out: Change[] = [];
  for (const group of byParent.values()) {
    const removed = group.filter((r) => r.field!.action === "remove");
    const added = group.filter((r) => r.field!.action === "add");
    if (removed.length !== 1 || added.length !== 1) continue;
    const [a, b] = [removed[0], added[0]];
    drop.add(a).add(b);
    const parent = a.subject.split(" › ").slice(0, -1).join(" › ");
    out.push({
      ...a,
      kind: "breaking",
      rule: "field-renamed",
      subject: `${parent} › ${a.field!.name}`,
      change: `field \`${a.field!.name}\` renamed to \`${b.field!.name}\` (removed and added)`,
    });
  }
  return [...changes.filter((r) => !drop.has(r)), ...out];
}

/** One finding per changed element and change, with every operation that reaches it. */
function aggregate(changes: Change[]): Finding[] {
  const byKey = new Map<string, Change[]>();
  for (const r of changes) {
    const key = `${r.rule}|${r.subject}|${r.change}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()].map((rs) => {
    // each operation is judged by its own group and direction; the worst verdict wins
    const judged = rs.map((r) => ({ r, ...judge(r.kind, [r.group]) }));
    const worst = judged.reduce((w, j) =>
      ORDER[j.severity] < ORDER[w.severity] ||
      (j.severity === w.severity && KIND_ORDER[j.r.kind] < KIND_ORDER[w.r.kind])
        ? j
        : w,
    );
    const deciding = judged.filter((j) => j.severity === worst.severity && j.r.kind === worst.r.kind);
    const { reason } = judge(worst.r.kind, [...new Map(deciding.map((j) => [j.r.group.name, j.r.group])).values()]);
    return {
      severity: worst.severity,
      kind: worst.r.kind,
      rule: rs[0].rule,
      subject: rs[0].subject,
      change: rs[0].change,
      operations: [...new Set(rs.map((r) => r.operation))].sort(),
      groups: sortGroups(rs.map((r) => r.group.name)),
      reason: [...new Set(rs.map((r) => r.reason).filter(Boolean)), reason].filter(Boolean).join("; "),
    };
  });
}

/**
 * MCP tool models embed the REST models (a tool result holds Mention): when a
 * /v1 finding already reports the component, the MCP copy only adds its tools
 * to that finding; a removed error code is reported once, as itself.
 */
function foldMcp(findings: Finding[], goneCodes: string[]): Finding[] {
  const component = (f: Finding) => f.subject.split(" › ")[0];
  const rest = findings.filter((f) => !(f.groups.length === 1 && f.groups[0] === MCP_GROUP.name));
  const out = [...rest];
  for (const f of findings.filter((x) => !rest.includes(x))) {
    if (/ErrorCode$/.test(component(f)) && goneCodes.some((c) => f.change.includes(`\`${c}\``))) continue;
    const twin = rest.find((r) => component(r) === component(f) && r.change === f.change);
    if (twin) {
      twin.operations = [...new Set([...twin.operations, ...f.operations])].sort();
      twin.groups = sortGroups([...twin.groups, MCP_GROUP.name]);
      continue;
    }
    out.push(f);
  }
  return out;
}

/**
 * The seed's policy. Versioning 1: /v1 is bumped to /v2 before any breaking
 * change, so a breaking change reaching a stable group is an error.
 * Versioning 2: in a group that may change it is a warning naming the group.
 */
function judge(kind: Kind, groups: Group[]): { severity: Severity; reason: string } {
  const stable = groups.filter((g) => g.stability === "stable");
  const mayChange = groups.filter((g) => g.stability === "may-change");
  if (kind === "breaking") {
    if (stable.length)
      return {
        severity: "error",
        reason: `breaking in stable group ${names(stable)}: needs /v2 (seed, Versioning 1-2)`,
      };
    if (mayChange.length)
      return {
        severity: "warning",
        reason: `breaking in ${names(mayChange)}, which the seed says may change (Versioning 2)`,
      };
    return { severity: "warning", reason: "reaches MCP tool models only; the seed's versioning rules cover /v1" };
  }
  if (kind === "unclassified")
    return {
      severity: "warning",
      reason: groups.every((g) => g === MCP_GROUP)
        ? "MCP tool model changed; the seed's versioning rules cover /v1, review the tool clients"
        : "the diff library could not classify it; review by hand",
    };
  return { severity: "info", reason: "" };
}

/** Group names, /v1 groups first (alphabetically), the MCP tools last. */
function sortGroups(names: string[]): string[] {
  return [...new Set(names)].sort(
    (a, b) => Number(a === MCP_GROUP.name) - Number(b === MCP_GROUP.name) || a.localeCompare(b),
  );
}

function names(groups: Group[]): string {
  return groups.map((g) => g.name).join(", ");
}

/** The report with its findings in reading order (errors first) and counted. */
export function finish(r: Omit<DiffReport, "counts">): DiffReport {
  const findings = [...r.findings].sort(
    (a, b) =>
      ORDER[a.severity] - ORDER[b.severity] ||
      a.kind.localeCompare(b.kind) ||
      a.subject.localeCompare(b.subject) ||
      a.change.localeCompare(b.change),
  );
  const counts = { error: 0, warning: 0, info: 0, breaking: 0, additive: 0, compatible: 0, unclassified: 0 };
  for (const f of findings) {
    counts[f.severity]++;
    counts[f.kind]++;
  }
  return { ...r, findings, counts };
}
