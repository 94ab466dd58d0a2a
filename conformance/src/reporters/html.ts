// One self-contained HTML report (inline CSS, no script, no external asset):
// failures first, each with its received-vs-documented diff and curl line,
// then every check's result.
import { diffLines } from "diff";
import type { RunReport } from "../runner.ts";
import type { CheckResult, Failure } from "../types.ts";
import { describeAttribution } from "../attribution.ts";
import { countsLine, findingsOf, type Finding } from "../verdict.ts";

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
const pretty = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v, null, 2) ?? String(v)));

/** A line diff of documented (−) against received (+), as HTML. */
export function diffHtml(received: unknown, expected: unknown): string {
  const parts = diffLines(pretty(expected) + "\n", pretty(received) + "\n");
  return parts
    .map(
      (p) =>
        `<span class="${p.added ? "add" : p.removed ? "del" : "same"}">${esc(
          p.value
            .replace(/\n$/, "")
            .split("\n")
            .map((l) => `${p.added ? "+ " : p.removed ? "- " : "  "}${l}`)
            .join("\n"),
        )}\n</span>`,
    )
    .join("");
}

function failureHtml(f: Failure): string {
  return `<section class="failure ${f.deviation ? "accepted" : (f.attribution?.kind ?? "")}"><h3>${esc(f.title)}</h3>
${f.attribution ? `<p class="rule"><b>${f.attribution.kind === "seed" ? "Seed rule" : `Contract decision ${esc(f.attribution.decision)}`}</b>: ${esc(describeAttribution(f.attribution, 400).replace(/^(seed rule|contract decision [A-Z0-9-]+): ?/, ""))}</p>` : ""}${f.deviation ? `<p class="rule">Accepted deviation (entry ${f.deviation.entry}, until ${esc(f.deviation.expires)}): ${esc(f.deviation.reason)}</p>` : ""}
${f.operation ? `<p class="op">${esc(f.operation)}${f.status ? ` → ${f.status}` : ""}</p>` : ""}${f.message ? `<p>${esc(f.message)}</p>` : ""}
${f.received !== undefined || f.expected !== undefined ? `<p class="legend"><span class="del">− documented</span> <span class="add">+ received</span></p><pre class="diff">${diffHtml(f.received, f.expected)}</pre>` : ""}
${f.curl ? `<p>reproduce:</p><pre class="curl">${esc(f.curl)}</pre>` : ""}${f.replay ? `<p>replay: <code>${esc(f.replay)}</code></p>` : ""}</section>`;
}

const rank: Record<CheckResult["outcome"], number> = { fail: 0, error: 0, pass: 2, skip: 3 };

function findingSections(report: RunReport): string {
  const all = findingsOf(report.results);
  const list = (fs: Finding[]) => (fs.length ? fs.map((f) => failureHtml(f.failure!)).join("\n") : "<p>None.</p>");
  const seed = all.filter((f) => f.level === "failure" && f.attribution.kind === "seed");
  const decision = all.filter((f) => f.level === "failure" && f.attribution.kind === "decision");
  const crashed = report.results
    .filter((r) => r.error)
    .map((r) => `<section class="failure"><h3>${esc(r.id)} crashed</h3><pre>${esc(r.error)}</pre></section>`)
    .join("\n");
  const v = report.verdict;
  const demoted = v.demotedDecisions.length
    ? `<h2>Warnings: contract decisions decided otherwise (${v.demotedDecisions.length}, --level seed)</h2><table><thead><tr><th>Decision</th><th>What the contract decided</th><th>What the seed says</th><th>Findings</th><th>Checks</th></tr></thead><tbody>${v.demotedDecisions
        .map((d) => {
          const a = all.find((f) => f.failure && f.attribution.decision === d.decision)!.attribution;
          return `<tr><td><code>${esc(d.decision)}</code></td><td>${esc(a.decided)}</td><td>${esc(a.seed)}</td><td>${d.failures}</td><td>${d.checks.map((c) => `<code>${esc(c)}</code>`).join(" ")}</td></tr>`;
        })
        .join("\n")}</tbody></table>`
    : "";
  const warned = all.filter((f) => f.level === "warning" && !f.failure);
  const warnings = warned.length
    ? `<h2>Warnings: lenient rules and advisories (${warned.length})</h2><ul>${warned
        .slice(0, 100)
        .map(
          (w) =>
            `<li><code>${esc(w.check)}</code> (${esc(w.attribution.kind === "decision" ? w.attribution.decision : "seed rule")}): ${esc(w.title)}</li>`,
        )
        .join("")}</ul>`
    : "";
  const accepted = all.filter((f) => f.level === "accepted");
  const stale = v.deviations.filter((d) => d.stale);
  return `<h2>Failures: seed rules (${seed.length})</h2>
${list(seed)}${crashed}
<h2>Failures: contract decisions on points the seed leaves open (${decision.length})</h2>
${list(decision)}
${demoted}${warnings}${accepted.length ? `<h2>Accepted deviations (${accepted.length})</h2>${list(accepted)}` : ""}${stale.length ? `<h2>Stale deviation entries (${stale.length})</h2><ul>${stale.map((d) => `<li class="fail">entry ${d.entry}: ${esc(d.label)} matches no finding any more</li>`).join("")}</ul>` : ""}`;
}

export function htmlReport(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const { pairs, exercised } = report.ledger.summary();
  const failed = report.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  const rows = [...report.results].sort((a, b) => rank[a.outcome] - rank[b.outcome]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sl-conformance ${esc(report.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:.2rem 0}
.failure{border-left:4px solid #cf222e;padding:.3rem .8rem;margin:1rem 0;background:#fff8f8}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
.add{color:#116329;background:#dafbe1}.del{color:#82071e;background:#ffebe9}.same{color:#57606a}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
.failure.decision{border-left-color:#bf8700;background:#fffbf0}.failure.accepted{border-left-color:#6e7781;background:#f6f8fa}.rule{font-size:.92em}
.fail,.error{color:#cf222e;font-weight:600}.pass{color:#116329}.skip{color:#6e7781}
</style></head><body>
<h1>sl-conformance run ${esc(report.runId)}</h1>
<p>Target <code>${esc(report.settings.baseUrl)}</code>, profile <b>${esc(report.settings.profile)}</b>, seed ${report.settings.seed}.
<b>${count("pass")} passed, ${failed.length} failed, ${count("skip")} skipped</b>; ${report.requestCount} requests; ${(report.ms / 1000).toFixed(1)} s;
coverage ${exercised}/${pairs} operation × status pairs; committed spend $${esc(report.spentUsd)}.</p>
<p><b>${esc(countsLine(report.verdict))}</b></p>
${findingSections(report)}
<h2>Every check</h2>
<table><thead><tr><th>Check</th><th>Result</th><th>Failures</th><th>Warnings</th><th>Requests</th><th>Note</th></tr></thead><tbody>
${rows.map((r) => `<tr><td><code>${esc(r.id)}</code></td><td class="${r.outcome}">${r.outcome}</td><td>${r.failures.length}</td><td>${r.warnings.length}</td><td>${r.requests}</td><td>${esc(r.skipReason ?? (r.unexercised?.length ? `not exercised: ${r.unexercised.join("; ")}` : ""))}${r.warnings.length ? `<br>${r.warnings.slice(0, 5).map(esc).join("<br>")}` : ""}</td></tr>`).join("\n")}
</tbody></table>
</body></html>
`;
}
