// Gate: every constraint of the contract has a provenance. Each property's
// required/type/nullable/format/pattern/bounds/enum constraint must resolve to
// a seed quote or a decision (conformance/src/provenance.ts says how marks are
// found); every quote must be the seed's own words (spec/seed.txt) and every
// decision a row of spec/DECISIONS.md. Run by `npm test`; `--list` prints the
// whole table, `--missing` only what fails.
//   npx tsx scripts/provenance-gate.ts [--list | --missing]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../conformance/src/openapi.ts";
import { ProvenanceMap, type Constraint } from "../conformance/src/provenance.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const doc = JSON.parse(readFileSync(`${root}generated/openapi.json`, "utf8")) as OpenApiDocument;
const flat = (s: string) => s.replace(/\s+/g, " ").trim();
const seed = flat(readFileSync(`${root}spec/seed.txt`, "utf8"));
const decisions = new Set(
  [...readFileSync(`${root}spec/DECISIONS.md`, "utf8").matchAll(/^\|\s*(D-[A-Z0-9-]+)\s*\|/gm)].map((m) => m[1]),
);

/** What is wrong with one constraint's provenance, if anything. */
export function problemOf(c: Constraint): string | undefined {
  const p = c.provenance;
  if (!p) return "no provenance";
  if (p.kind === "seed" && !seed.includes(flat(p.quote))) return `quote not found in spec/seed.txt: "${p.quote}"`;
  if (p.kind === "decision" && !decisions.has(p.decision)) return `${p.decision} is not a row of spec/DECISIONS.md`;
  return undefined;
}

const all = [...new ProvenanceMap(doc).constraints()];
const bad = all.map((c) => ({ c, problem: problemOf(c) })).filter((x) => x.problem);
const show = (c: Constraint) =>
  `${c.element}: ${c.demand} — ${c.provenance ? (c.provenance.kind === "seed" ? `seed "${c.provenance.quote}"` : c.provenance.decision) : "?"}`;
if (process.argv.includes("--list")) for (const c of all) console.log(show(c));
if (process.argv.includes("--missing") || bad.length)
  for (const { c, problem } of bad) console.error(`${c.element}: ${c.demand} — ${problem}`);
const seedCount = all.filter((c) => c.provenance?.kind === "seed").length;
console.log(
  `provenance: ${all.length} constraints, ${seedCount} seed, ${all.length - seedCount - bad.filter((b) => !b.c.provenance).length} decision, ${bad.length} with a problem`,
);
process.exit(bad.length ? 1 : 0);
