// summary.md: the run as Markdown that renders on GitHub and in CI job
// summaries: a real table (no code fence), then the failures.
import type { RunReport } from "../runner.ts";
import type { Failure } from "../types.ts";
import { describeAttribution } from "../attribution.ts";
import { countsLine, findingsOf, type Finding } from "../verdict.ts";
import { spendPhrase } from "./console.ts";

const cell = (s: unknown) =>
  String(s ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, " ");
const code = (s: string) => "`" + s.replace(/`/g, "'") + "`";
const short = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s && s.length > 300 ? s.slice(0, 300) + "…" : String(s);
};

function failureItem(f: Failure): string {
  const lines = [`- **${cell(f.title)}**${f.operation ? ` (${f.operation}${f.status ? ` → ${f.status}` : ""})` : ""}`];
  if (f.attribution) lines.push(`  - rule: ${cell(describeAttribution(f.attribution, 200))}`);
  if (f.deviation)
    lines.push(
      `  - accepted deviation (entry ${f.deviation.entry}, until ${f.deviation.expires}): ${cell(f.deviation.reason)}`,
    );
  if (f.received !== undefined) lines.push(`  - received: ${code(short(f.received))}`);
  if (f.expected !== undefined) lines.push(`  - documented: ${code(short(f.expected))}`);
  if (f.curl) lines.push(`  - reproduce: ${code(f.curl)}`);
  if (f.replay) lines.push(`  - replay: ${code(f.replay)}`);
  return lines.join("\n");
}

/** Money per check: what each chargeable check committed, and what the balance really fell by around it. */
function spendSection(report: RunReport): string[] {
  const s = report.spend;
  if (!s?.byCheck.length) return [];
  const usd = (v: string | undefined) => (v === undefined ? "?" : `$${v}`);
  return [
    "",
    `## Spend (${spendPhrase(report)})`,
    "",
    "Committed: what the budget guard held for the check (the most its requests may cost). Settled: how far the main account's balance (GET /v1/me) fell since the reading before the check; a run still in flight when the check ended settles in a later row.",
    "",
    "| Check | Committed | Settled |",
    "|---|---|---|",
    ...s.byCheck.map((c) => `| ${code(c.check)} | ${usd(c.committedUsd)} | ${usd(c.settledUsd)} |`),
    ...(s.afterChecksUsd !== undefined
      ? [`| after the last check (runs in flight, cleanup) | | ${usd(s.afterChecksUsd)} |`]
      : []),
    ...(s.note ? ["", s.note] : []),
  ];
}

export function summaryMarkdown(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const { pairs, exercised } = report.ledger.summary();
  const out = [
    `# Conformance run ${report.runId}`,
    "",
    `Target ${code(report.settings.baseUrl)}, profile **${report.settings.profile}**, seed ${report.settings.seed}.`,
    "",
    `**${count("pass")} passed, ${count("fail") + count("error")} failed, ${count("skip")} skipped** (level ${report.verdict.level}: ${report.verdict.counts.seedFailures} seed-rule and ${report.verdict.counts.decisionFailures} contract-decision failures, ${report.verdict.counts.accepted} accepted deviations); ${report.requestCount} requests; ${(report.ms / 1000).toFixed(1)} s; coverage ${exercised}/${pairs} operation × status pairs (${pairs ? Math.round((exercised / pairs) * 100) : 0} %); ${spendPhrase(report)}.`,
    "",
    "| Check | Result | Failures | Warnings | Requests | ms | Note |",
    "|---|---|---|---|---|---|---|",
    ...report.results.map(
      (r) =>
        `| ${code(r.id)} | ${r.outcome} | ${r.failures.length} | ${r.warnings.length} | ${r.requests} | ${r.ms} | ${cell(r.skipReason ?? (r.unexercised?.length ? `not exercised: ${r.unexercised.join("; ")}` : (r.error?.split("\n")[0] ?? "")))} |`,
    ),
  ];
  out.push(...spendSection(report));
  const all = findingsOf(report.results);
  const section = (title: string, list: Finding[]) => {
    if (!list.length) return;
    out.push("", `## ${title} (${list.length})`, "");
    for (const f of list.slice(0, 60)) out.push(failureItem(f.failure!));
    if (list.length > 60) out.push(`- … and ${list.length - 60} more (results.json has them all)`);
  };
  section(
    "Failures: seed rules",
    all.filter((f) => f.level === "failure" && f.attribution.kind === "seed"),
  );
  section(
    "Failures: contract decisions on points the seed leaves open",
    all.filter((f) => f.level === "failure" && f.attribution.kind === "decision"),
  );
  for (const r of report.results) if (r.error) out.push(`- **${r.id} crashed**: ${code(r.error.split("\n")[0]!)}`);
  const v = report.verdict;
  if (v.demotedDecisions.length) {
    out.push(
      "",
      `## Warnings: contract decisions decided otherwise (--level seed) (${v.demotedDecisions.length})`,
      "",
      "| Decision | What the contract decided | What the seed says | Findings | Checks |",
      "|---|---|---|---|---|",
    );
    for (const d of v.demotedDecisions) {
      const a = all.find((f) => f.failure && f.attribution.decision === d.decision)!.attribution;
      out.push(
        `| ${d.decision} | ${cell(a.decided)} | ${cell(a.seed)} | ${d.failures} | ${d.checks.map(code).join(", ")} |`,
      );
    }
  }
  const warned = all.filter((f) => f.level === "warning" && !f.failure);
  if (warned.length) {
    out.push("", `## Warnings: lenient rules and advisories (${warned.length})`, "");
    for (const w of warned.slice(0, 40))
      out.push(
        `- ${code(w.check)} (${w.attribution.kind === "decision" ? w.attribution.decision : "seed rule"}): ${cell(w.title)}`,
      );
    if (warned.length > 40) out.push(`- … and ${warned.length - 40} more`);
  }
  section(
    "Accepted deviations",
    all.filter((f) => f.level === "accepted"),
  );
  const stale = v.deviations.filter((d) => d.stale);
  if (stale.length) {
    out.push("", `## Stale deviation entries (${stale.length}): they match no finding any more; remove them`, "");
    for (const d of stale) out.push(`- entry ${d.entry}: ${cell(d.label)}`);
  }
  out.push("", `**${countsLine(v)}**`);
  return out.join("\n") + "\n";
}
