// The figures in the docs that move with the code (demo data, the kit's cost
// table, the contract diff's example outputs) are the ones their sources give
// today: scripts/update-doc-figures.ts generates each, and this fails when a
// block in the docs no longer matches (run that script to rewrite them).
import { describe, expect, it } from "vitest";
import { compare } from "../../scripts/update-doc-figures.ts";

describe("figures in the docs", () => {
  it("each generated block matches its source (npx tsx scripts/update-doc-figures.ts rewrites them)", () => {
    const stale = compare().filter((c) => c.found !== c.wanted);
    for (const c of stale)
      console.log(
        `${c.figure.file} figure ${c.figure.name}:\n--- in the docs\n${c.found}\n+++ from its source\n${c.wanted}`,
      );
    expect(stale.map((c) => `${c.figure.file}: ${c.figure.name}`)).toEqual([]);
  }, 120_000);
});
