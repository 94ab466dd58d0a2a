// The verdict of a run: every failure and warning attributed to a seed rule or
// a contract decision (attribution.ts), the level applied (--level seed turns
// decision failures into warnings), and the deviations file applied (a covered
// failure becomes an accepted deviation; a stale entry fails the run).
import { attribute, attributeWarning, type Attribution } from "./attribution.ts";
import { entryMatches, judgeEntries, type DeviationUse } from "./deviations.ts";
import type { CheckResult, Failure, Settings } from "./types.ts";

export type FindingLevel = "failure" | "warning" | "accepted";

/** One finding as every reporter shows it. */
export interface Finding {
  check: string;
  level: FindingLevel;
  attribution: Attribution;
  title: string;
  failure?: Failure;
  /** why a failure was turned into a warning or accepted */
  note?: string;
}

export interface Verdict {
  level: "contract" | "seed";
  /** findings counted apart: seed-rule failures, contract-decision failures, warnings, accepted deviations */
  counts: {
    seedFailures: number;
    decisionFailures: number;
    seedWarnings: number;
    decisionWarnings: number;
    accepted: number;
  };
  /** contract decisions reported as warnings at --level seed (one entry per decision) */
  demotedDecisions: Array<{ decision: string; failures: number; checks: string[] }>;
  deviations: DeviationUse[];
  /** false when an entry of the deviations file is stale */
  ok: boolean;
}

/** Attribute, apply the level and the deviations, and recompute each check's outcome. */
export function settle(results: CheckResult[], settings: Pick<Settings, "level" | "deviations">): Verdict {
  const level = settings.level ?? "contract";
  const entries = settings.deviations ?? [];
  const uses = entries.map(() => 0);
  for (const r of results) {
    const all = [...r.failures, ...(r.demoted ?? []), ...(r.accepted ?? [])];
    r.failures = [];
    r.demoted = [];
    r.accepted = [];
    for (const f of all) {
      f.attribution ??= attribute(f);
      delete f.deviation;
      const i = entries.findIndex((e) => entryMatches(e, f));
      if (i >= 0) {
        uses[i]!++;
        f.deviation = { reason: entries[i]!.reason, expires: entries[i]!.expires, entry: i + 1 };
        r.accepted.push(f);
      } else if (level === "seed" && f.attribution.kind === "decision") r.demoted.push(f);
      else r.failures.push(f);
    }
    if (r.outcome === "fail" && r.failures.length === 0) {
      // the check asserted something besides the findings now set aside: it passed; otherwise it showed nothing of the seed's rules
      const passes = (r.exercised ?? 0) - r.demoted.length - r.accepted.length;
      if (passes > 0 || r.warnings.length) r.outcome = "pass";
      else {
        r.outcome = "skip";
        r.skipReason = `only ${level === "seed" ? "contract-decision findings" : "accepted deviations"} (${[...new Set([...r.demoted, ...r.accepted].map((f) => f.attribution?.decision ?? f.check))].join(", ")}); nothing else was exercised`;
      }
    } else if ((r.outcome === "pass" || r.outcome === "skip") && r.failures.length) r.outcome = "fail";
  }
  const findings = findingsOf(results);
  const count = (lv: FindingLevel, k: "seed" | "decision") =>
    findings.filter((f) => f.level === lv && f.attribution.kind === k).length;
  const demoted = new Map<string, { failures: number; checks: Set<string> }>();
  for (const r of results)
    for (const f of r.demoted ?? []) {
      const d = demoted.get(f.attribution!.decision!) ?? { failures: 0, checks: new Set<string>() };
      d.failures++;
      d.checks.add(f.check);
      demoted.set(f.attribution!.decision!, d);
    }
  const deviations = judgeEntries(entries, uses, results);
  return {
    level,
    counts: {
      seedFailures: count("failure", "seed"),
      decisionFailures: count("failure", "decision"),
      seedWarnings: count("warning", "seed"),
      decisionWarnings: count("warning", "decision"),
      accepted: findings.filter((f) => f.level === "accepted").length,
    },
    demotedDecisions: [...demoted.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([decision, d]) => ({ decision, failures: d.failures, checks: [...d.checks] })),
    deviations,
    ok: !deviations.some((d) => d.stale),
  };
}

/** Every finding of the run, failures first, then warnings (demoted decisions included), then accepted deviations. */
export function findingsOf(results: CheckResult[]): Finding[] {
  const out: Finding[] = [];
  for (const r of results)
    for (const f of r.failures)
      out.push({
        check: r.id,
        level: "failure",
        attribution: f.attribution ?? attribute(f),
        title: f.title,
        failure: f,
      });
  for (const r of results) {
    for (const f of r.demoted ?? [])
      out.push({
        check: r.id,
        level: "warning",
        attribution: f.attribution!,
        title: f.title,
        failure: f,
        note: "a contract decision on a point the seed leaves open (--level seed)",
      });
    for (const w of r.warnings)
      out.push({ check: r.id, level: "warning", attribution: attributeWarning(r.id, w), title: w });
  }
  for (const r of results)
    for (const f of r.accepted ?? [])
      out.push({
        check: r.id,
        level: "accepted",
        attribution: f.attribution!,
        title: f.title,
        failure: f,
        note: `accepted deviation (entry ${f.deviation?.entry}, until ${f.deviation?.expires}): ${f.deviation?.reason}`,
      });
  return out;
}

/** The closing counts, kinds apart. */
export function countsLine(v: Verdict): string {
  const c = v.counts;
  const stale = v.deviations.filter((d) => d.stale);
  return `level ${v.level}: ${c.seedFailures} seed-rule failure(s), ${c.decisionFailures} contract-decision failure(s); warnings: ${c.seedWarnings} seed, ${c.decisionWarnings} contract-decision${v.demotedDecisions.length ? ` (${v.demotedDecisions.length} decision(s) decided otherwise)` : ""}; ${c.accepted} accepted deviation(s)${v.deviations.length ? `; ${stale.length} stale deviation entr${stale.length === 1 ? "y" : "ies"}` : ""}`;
}
