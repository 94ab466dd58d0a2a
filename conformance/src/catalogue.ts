// The check catalogue as a Markdown table (README and `--catalogue`).
import { allChecks } from "./checks/index.ts";

export function catalogueMarkdown(): string {
  const rows = [
    "| Check id | Rule | Seed section / decision | Severity | Profiles | Mock-applicable | Kind |",
    "|---|---|---|---|---|---|---|",
    ...allChecks.map(
      (c) =>
        `| \`${c.id}\` | ${c.rule.replace(/\|/g, "\\|")} | ${c.section.replace(/\|/g, "\\|")} | ${c.severity} | ${c.profiles.join(", ")} | ${c.mock ? "yes" : "no"} | ${c.kind === "active" ? "active" : "response"}${c.invalidRequests ? " (sends invalid requests)" : ""} |`,
    ),
  ];
  return rows.join("\n") + "\n";
}
