// summary.md: the run as Markdown that renders on GitHub and in CI job
// summaries: a real table (no code fence), then the failures.
import type { RunReport } from "../runner.ts";
import type { Failure } from "../types.ts";

const cell = (s: unknown) => String(s ?? "").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const code = (s: string) => "`" + s.replace(/`/g, "'") + "`";
const short = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s && s.length > 300 ? s.slice(0, 300) + "…" : String(s);
};

function failureItem(f: Failure): string {
  const lines = [`- **${cell(f.title)}**${f.operation ? ` (${f.operation}${f.status ? ` → ${f.status}` : ""})` : ""}`];
  if (f.received !== undefined) lines.push(`  - received: ${code(short(f.received))}`);
  if (f.expected !== undefined) lines.push(`  - documented: ${code(short(f.expected))}`);
  if (f.curl) lines.push(`  - reproduce: ${code(f.curl)}`);
  if (f.replay) lines.push(`  - replay: ${code(f.replay)}`);
  return lines.join("\n");
}

export function summaryMarkdown(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const { pairs, exercised } = report.ledger.summary();
  const out = [
    `# Conformance run ${report.runId}`,
    "",
    `Target ${code(report.settings.baseUrl)}, profile **${report.settings.profile}**, seed ${report.settings.seed}.`,
    "",
    `**${count("pass")} passed, ${count("fail") + count("error")} failed, ${count("skip")} skipped**; ${report.requestCount} requests; ${(report.ms / 1000).toFixed(1)} s; coverage ${exercised}/${pairs} operation × status pairs (${pairs ? Math.round((exercised / pairs) * 100) : 0} %); committed spend $${report.spentUsd}.`,
    "",
    "| Check | Result | Failures | Warnings | Requests | ms | Note |",
    "|---|---|---|---|---|---|---|",
    ...report.results.map((r) => `| ${code(r.id)} | ${r.outcome} | ${r.failures.length} | ${r.warnings.length} | ${r.requests} | ${r.ms} | ${cell(r.skipReason ?? (r.unexercised?.length ? `not exercised: ${r.unexercised.join("; ")}` : r.error?.split("\n")[0] ?? ""))} |`),
  ];
  const failed = report.results.filter((r) => r.failures.length || r.error);
  if (failed.length) {
    out.push("", "## Failures", "");
    for (const r of failed) {
      for (const f of r.failures.slice(0, 10)) out.push(failureItem(f));
      if (r.error) out.push(`- **${r.id} crashed**: ${code(r.error.split("\n")[0])}`);
    }
  }
  const warned = report.results.filter((r) => r.warnings.length);
  if (warned.length) {
    out.push("", "## Warnings (lenient rules)", "");
    for (const r of warned) for (const w of r.warnings.slice(0, 5)) out.push(`- ${code(r.id)}: ${cell(w)}`);
  }
  return out.join("\n") + "\n";
}
