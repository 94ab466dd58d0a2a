// One vitest run covers the three parts of the kit; each part keeps its tests
// beside its code. Property tests print their fast-check seed on failure.
//
// The files run in four groups, one group after the other:
// 1. "mutation": the mutation harness's three shards (conformance/test/
//    mutation*.test.ts) side by side, and beside them the files in BESIDE
//    (the longest of the rest, mostly CPU in child processes; none of them
//    times more than a margin made for a machine shared with five files). A
//    shard adds whole-kit runs while its event loop keeps up (adaptivePool in
//    mutation-harness.ts); its runs cost little CPU (the kit's requests are
//    answered in the shard's process) and wait mostly on the rate limit, so
//    the BESIDE files use the CPU the shards leave instead of lengthening the
//    "parallel" group as its last files. No file that runs the kit against a
//    live server runs here.
// 2. "kit": the other files that run the kit against a live server
//    (conformance/test/, and the files listed in KIT), two at a time: the
//    kit's planned burst of 2 x RateLimit-Limit + 3 requests must land within
//    two one-second windows, which it does not when its process gets a small
//    share of a crowded CPU.
// 3. "parallel": every other file, SLK_TEST_WORKERS at a time (default 5 on
//    any machine: most files wait on servers, child processes and pipeline
//    delays rather than compute, so two cores carry five).
// 4. "alone": a file that must have the machine to itself (it measures
//    event-loop delay or wall time under a ceiling, or saturates both cores)
//    is named `*.alone.test.ts`; those run last, one at a time.
// `npm test` (scripts/test-all.mjs) runs its gates (linters, typecheck, ...)
// beside vitest at a lower priority, so they take the CPU the groups leave
// (the kit group leaves most of a core) rather than the shards'.
// Every server a test starts binds a free 127.0.0.1 port, so files never
// collide. A long file (one of the slowest in `npm test`'s list) goes in LONG
// below, so it starts first in its group and the short files fill the cores
// around it; without the list a fresh clone (no timing cache) starts the
// biggest files first.
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const INCLUDE = ["test/**/*.test.ts", "reference-impl/test/**/*.test.ts", "conformance/test/**/*.test.ts"];
const EXCLUDE = ["node_modules/**", "tmp/**"];
const ALONE = "**/*.alone.test.ts";
const MUTATION = "conformance/test/mutation*.test.ts";
/** The longest of the other files, run beside the mutation shards (group 1 above): no kit, no time asserted beyond a shared machine's margin. */
const BESIDE = [
  "test/contract/contract-diff.test.ts",
  "reference-impl/test/dev-backend-restart.test.ts",
  "reference-impl/test/dev-backend-state-sliced.test.ts",
];
/** Files that run the kit against a live server: conformance/test/ and these. */
const KIT = ["conformance/test/**/*.test.ts", "reference-impl/test/dev-backend-kit-faults.test.ts"];

/** The longest files of each group, longest first (see the slowest-files list at the end of `npm test`). */
const LONG = [
  "conformance/test/mutation.test.ts",
  "conformance/test/mutation-2.test.ts",
  "conformance/test/mutation-3.test.ts",
  "test/contract/contract-diff.test.ts",
  "reference-impl/test/dev-backend-restart.test.ts",
  "reference-impl/test/dev-backend-state-sliced.test.ts",
  // the whole kit against a foreign implementation at its own 5 requests a second: the longest of the kit group
  "conformance/test/foreign.test.ts",
  "conformance/test/deviation-mode.test.ts",
  "conformance/test/package-install.test.ts",
  "test/scripts/robustness.test.ts",
  "conformance/test/kit-prism-proxy.test.ts",
  "conformance/test/kit-core.test.ts",
  "conformance/test/groups-reference.test.ts",
  "conformance/test/mcp-reference.test.ts",
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG.findIndex((l) => f.moduleId.endsWith(l));
      return i < 0 ? LONG.length : i;
    };
    // groups keep their order; within a group, LONG files first
    return sorted
      .map((f, i) => ({ f, i }))
      .sort(
        (a, b) =>
          a.f.project.config.sequence.groupOrder - b.f.project.config.sequence.groupOrder ||
          rank(a.f) - rank(b.f) ||
          a.i - b.i,
      )
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    exclude: EXCLUDE,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: Number(process.env.SLK_TEST_WORKERS ?? 5),
    reporters: ["default", "json", "./scripts/vitest-file-times.ts"],
    outputFile: { json: "reports/vitest.json" },
    sequence: { sequencer: LongFirst },
    projects: [
      // the two projects of group 1 share its workers: three shards and the BESIDE files
      {
        extends: true,
        test: {
          name: "mutation",
          include: [MUTATION],
          exclude: [...EXCLUDE, ALONE],
          maxWorkers: 3 + BESIDE.length,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "beside-mutation",
          include: BESIDE,
          exclude: [...EXCLUDE, ALONE, MUTATION, ...KIT],
          maxWorkers: 3 + BESIDE.length,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "kit",
          include: KIT,
          exclude: [...EXCLUDE, ALONE, MUTATION],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "parallel",
          include: INCLUDE,
          exclude: [...EXCLUDE, ALONE, MUTATION, ...KIT, ...BESIDE],
          sequence: { groupOrder: 2 },
        },
      },
      { extends: true, test: { name: "alone", include: [ALONE], maxWorkers: 1, sequence: { groupOrder: 3 } } },
    ],
  },
});
