// A vitest reporter that writes each test file's wall time to
// reports/vitest-files.json (or SLK_FILE_TIMES): importing it, its hooks and
// its tests (vitest's JSON report times only the tests, not a beforeAll that
// starts a server). `npm test` (scripts/test-all.mjs) prints the ten slowest.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class FileTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = process.cwd();
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: path.relative(root, m.moduleId),
        project: m.project.name,
        ms: Math.round(d.collectDuration + d.setupDuration + d.duration),
        collectMs: Math.round(d.collectDuration),
        tests: [...m.children.allTests()].length,
        state: m.state(),
      };
    });
    const out = path.resolve(root, process.env.SLK_FILE_TIMES ?? "reports/vitest-files.json");
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(files, null, 1) + "\n");
  }
}
