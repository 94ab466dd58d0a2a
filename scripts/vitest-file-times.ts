// A vitest reporter that writes each test file's wall time to
// reports/vitest-files.json (or SLK_FILE_TIMES): importing it, its hooks and
// its tests (vitest's JSON report times only the tests, not a beforeAll that
// starts a server), and when the file was queued and ended, in ms from the
// start of the run, so the groups' spans can be read off (the groups run one
// after the other: the sum of their spans is the run's critical path).
// `npm test` (scripts/test-all.mjs) prints the groups' spans and the ten
// slowest files.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class FileTimes implements Reporter {
  private t0 = Date.now();
  private queued = new Map<string, number>();
  private ended = new Map<string, number>();

  onTestRunStart(): void {
    this.t0 = Date.now();
  }

  onTestModuleQueued(m: TestModule): void {
    this.queued.set(m.moduleId, Date.now() - this.t0);
  }

  onTestModuleEnd(m: TestModule): void {
    this.ended.set(m.moduleId, Date.now() - this.t0);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = process.cwd();
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: path.relative(root, m.moduleId),
        project: m.project.name,
        ms: Math.round(d.collectDuration + d.setupDuration + d.duration),
        collectMs: Math.round(d.collectDuration),
        queuedAtMs: this.queued.get(m.moduleId),
        endedAtMs: this.ended.get(m.moduleId),
        tests: [...m.children.allTests()].length,
        state: m.state(),
      };
    });
    const out = path.resolve(root, process.env.SLK_FILE_TIMES ?? "reports/vitest-files.json");
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(files, null, 1) + "\n");
  }
}
