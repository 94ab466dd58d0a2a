// The three views of a contract diff: a console table for the author, Markdown
// for a pull-request comment and the changelog, JUnit XML for CI annotations.
import junitModule, { type Builder } from "junit-report-builder";
import type { DiffReport, Finding, Severity } from "./contract-diff-types.ts";

const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;

export interface Labels {
  /** How the base was named (`release 0.1.0`, a file, a git ref). */
  base: string;
  /** How the current document was obtained (`TypeSpec in /work/main`, a file). */
  current: string;
}

function summary(r: DiffReport): string {
  const c = r.counts;
  return `${c.error} error${c.error === 1 ? "" : "s"}, ${c.warning} warning${c.warning === 1 ? "" : "s"}, ${c.additive} additive, ${c.compatible} compatible; ${r.annotations} text-only change${r.annotations === 1 ? "" : "s"} (descriptions, summaries) not listed`;
}

function cut(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

function reach(f: Finding): string {
  return f.groups.join(", ");
}

export function consoleTable(r: DiffReport, labels: Labels): string {
  const lines = [
    `contract diff: ${labels.base} (info ${r.base.version}, ${r.base.operations} operations) → ${labels.current} (info ${r.current.version}, ${r.current.operations} operations)`,
  ];
  if (!r.findings.length) {
    lines.push("No change a client or a deployment would notice.", summary(r));
    return lines.join("\n");
  }
  const rows = r.findings.map((f) => [f.severity, f.kind, cut(f.change, 58), cut(f.subject, 54), cut(reach(f), 44)]);
  const head = ["severity", "kind", "change", "element", "groups"];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) =>
    row
      .map((v, i) => v.padEnd(width[i]))
      .join("  ")
      .trimEnd();
  lines.push(fmt(head), width.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt));
  const why = r.findings.filter((f) => f.severity !== "info" && f.reason);
  if (why.length) {
    lines.push("", "Why:");
    for (const f of why) lines.push(`  ${f.severity} ${f.subject}: ${f.reason}`);
  }
  lines.push("", summary(r));
  return lines.join("\n");
}

const SECTIONS: Array<{ title: string; pick: (f: Finding) => boolean }> = [
  { title: "Breaking changes (errors: a stable group, or an error code)", pick: (f) => f.severity === "error" },
  { title: "Changes that need attention (warnings)", pick: (f) => f.severity === "warning" },
  { title: "Additive changes", pick: (f) => f.severity === "info" && f.kind === "additive" },
  { title: "Compatible changes", pick: (f) => f.severity === "info" && f.kind !== "additive" },
];

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** Markdown: a pull-request comment, and the changelog section of a release. `heading` is the level for the sections. */
export function markdown(r: DiffReport, labels: Labels, heading = "###"): string {
  const out = [`Compared with ${labels.base} (info version ${r.base.version}): ${summary(r)}.`];
  if (!r.findings.length) out.push("", "No change a client or a deployment would notice.");
  for (const s of SECTIONS) {
    const fs = r.findings.filter(s.pick);
    if (!fs.length) continue;
    out.push(
      "",
      `${heading} ${s.title}`,
      "",
      "| Change | Element | Groups | Operations | Why |",
      "|---|---|---|---|---|",
    );
    for (const f of fs) {
      const ops =
        f.operations.length > 3
          ? `${f.operations
              .slice(0, 3)
              .map((o) => `\`${o}\``)
              .join(", ")} and ${f.operations.length - 3} more`
          : f.operations.map((o) => `\`${o}\``).join(", ");
      out.push(`| ${cell(f.change)} | \`${cell(f.subject)}\` | ${cell(reach(f))} | ${cell(ops)} | ${cell(f.reason)} |`);
    }
  }
  return out.join("\n") + "\n";
}

const SEVERITY_TYPE: Record<Severity, string> = { error: "error", warning: "warning", info: "info" };

/** JUnit XML: one test case per finding; errors fail, warnings pass with their reason on stdout. */
export function junitXml(r: DiffReport, labels: Labels): string {
  const b = junit.newBuilder();
  const suite = b.testSuite().name(`contract diff against ${labels.base}`);
  if (!r.findings.length)
    suite.testCase().className("contract-diff").name("no change a client or a deployment would notice");
  for (const f of r.findings) {
    const tc = suite.testCase().className(`contract-diff.${f.kind}`).name(`${f.rule}: ${f.subject} — ${f.change}`);
    if (f.severity === "error") tc.failure(`${f.change} (${f.reason})`, SEVERITY_TYPE[f.severity]);
    tc.standardOutput(
      [`${f.severity}: ${f.reason || f.kind}`, `groups: ${reach(f)}`, `operations: ${f.operations.join(", ")}`].join(
        "\n",
      ),
    );
  }
  return b.build();
}
