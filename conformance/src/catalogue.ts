// The check catalogue as a Markdown table (README and `--catalogue`), by id.
import { allChecks } from "./registry.ts";

export function catalogueMarkdown(): string {
  const rows = [
    "| Check id | Rule | Seed section / decision | Severity | Profiles | Mock-applicable | Kind |",
    "|---|---|---|---|---|---|---|",
    ...[...allChecks]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(
        (c) =>
          `| \`${c.id}\` | ${c.rule.replace(/\|/g, "\\|")} | ${c.section.replace(/\|/g, "\\|")} | ${c.severity} | ${c.profiles.join(", ")} | ${c.mock ? "yes" : "no"} | ${c.kind === "active" ? "active" : "response"}${c.invalidRequests ? " (sends invalid requests)" : ""} |`,
      ),
  ];
  return rows.join("\n") + "\n";
}
