// Gate: every constraint of the contract has a provenance, and a seed
// provenance states what the constraint asserts. Each property's
// required/type/nullable/format/pattern/bounds/enum constraint must resolve to
// a seed quote or a decision (conformance/src/provenance.ts says how marks are
// found); every quote must be the seed's own words (spec/seed.txt), every
// decision a row of spec/DECISIONS.md, and every fact the constraint asserts
// must stand in its quote, found by the matcher the kit's grounding gate uses
// (conformance/src/grounding/facts.ts; provenance.ts `factsOf` says which
// facts each kind asserts). A second rule works per operation: each error
// code an operation documents at an error status is stated for that operation
// by the seed (its endpoint row, a passage its `@seed(…, "errors")` mark
// quotes, or the Errors table for every operation), or its error model is a
// decision. Run by `npm test`; `--list` prints the whole table, `--missing`
// only what fails; `--doc <path>` gates another build of the document.
//   npx tsx scripts/provenance-gate.ts [--list | --missing] [--doc <openapi.json>]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../conformance/src/openapi.ts";
import { describeFact, factIn } from "../conformance/src/grounding/facts.ts";

import {
  CODE_STATUSES,
  errorCodeFindings,
  EVERY_OPERATION_CODES,
  factsOf,
  ProvenanceMap,
  type Constraint,
  type ErrorCodeFinding,
} from "../conformance/src/provenance.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
// --doc <path>: another build of the document (a scratch compile), instead of generated/openapi.json
const docAt = process.argv.indexOf("--doc");
const docPath = docAt > 0 ? process.argv[docAt + 1]! : `${root}generated/openapi.json`;
const doc = JSON.parse(readFileSync(docPath, "utf8")) as OpenApiDocument;
const flat = (s: string) => s.replace(/\s+/g, " ").trim();
const seedText = readFileSync(`${root}spec/seed.txt`, "utf8");
const seed = flat(seedText);
const decisions = new Set(
  [...readFileSync(`${root}spec/DECISIONS.md`, "utf8").matchAll(/^\|\s*(D-[A-Z0-9-]+)\s*\|/gm)].map((m) => m[1]),
);

/** What is wrong with one constraint's provenance, if anything. */
export function problemOf(c: Constraint): string | undefined {
  // an error body's code is judged per operation (the operation rule below)
  if (c.perOperation) return undefined;
  const p = c.provenance;
  if (!p) return "no provenance";
  if (p.kind === "decision")
    return decisions.has(p.decision) ? undefined : `${p.decision} is not a row of spec/DECISIONS.md`;
  if (!seed.includes(flat(p.quote))) return `quote not found in spec/seed.txt: "${p.quote}"`;
  const missing = factsOf(c).filter((f) => !factIn(p.quote, f));
  if (missing.length)
    return `the quote does not state ${missing.map(describeFact).join(", ")}: "${p.quote.length > 120 ? p.quote.slice(0, 119) + "…" : p.quote}"`;
  return undefined;
}

/** What is wrong with one operation's error code, if anything. */
function errorProblem(f: ErrorCodeFinding): string | undefined {
  const g = f.grounds;
  if (g?.kind === "decision")
    return decisions.has(g.decision) ? undefined : `${g.decision} is not a row of spec/DECISIONS.md`;
  if (g?.kind === "seed")
    return seed.includes(flat(g.quote)) ? undefined : `quote not found in spec/seed.txt: "${g.quote}"`;
  const row = seedText.split("\n").find((l) => l.startsWith(`| ${f.key} |`));
  return (
    `${f.code} is not stated for this operation by a passage its @seed(…, "errors") marks quote ` +
    `(${f.passages.length ? f.passages.map((q) => `"${q.slice(0, 60)}…"`).join(", ") : "none"}), and no @decided(…, "errors") mark or decided error model covers it` +
    (row && factIn(row, { kind: "code", value: f.code }) ? `; its endpoint row names it: ${row}` : "")
  );
}

/** What is wrong with an operation's own error passages: each is the seed's words, and a row is the operation's own. */
function passageProblems(): string[] {
  const out: string[] = [];
  for (const f of new Map(codes.map((c) => [c.key, c])).values())
    for (const q of f.passages) {
      if (!seed.includes(flat(q))) out.push(`${f.operationId}: errors quote not found in spec/seed.txt: "${q}"`);
      else if (q.startsWith("|") && !q.startsWith(`| ${f.key} |`))
        out.push(`${f.operationId}: errors quote is another endpoint's row: "${q.slice(0, 80)}"`);
    }
  return out;
}

const all = [...new ProvenanceMap(doc).constraints()];
const bad = all.map((c) => ({ c, problem: problemOf(c) })).filter((x) => x.problem);
const codes = errorCodeFindings(doc);
const badCodes = codes.map((f) => ({ f, problem: errorProblem(f) })).filter((x) => x.problem);
const badPassages = passageProblems();
for (const q of [...Object.values(EVERY_OPERATION_CODES).map((e) => e.quote), ...Object.values(CODE_STATUSES).flat()])
  if (!seed.includes(flat(q))) badPassages.push(`every operation's code quote not found in spec/seed.txt: "${q}"`);
const show = (c: Constraint) =>
  `${c.element}: ${c.demand} — ${c.perOperation ? "per operation (below)" : c.provenance ? (c.provenance.kind === "seed" ? `seed "${c.provenance.quote}"` : c.provenance.decision) : "?"}`;
const showCode = (f: ErrorCodeFinding) =>
  `${f.operationId} ${f.status}: error_code ${f.code} — ${f.grounds?.kind === "seed" ? `seed "${f.grounds.quote}"` : f.grounds?.kind === "decision" ? f.grounds.decision : "?"}`;
if (process.argv.includes("--list")) {
  for (const c of all) console.log(show(c));
  for (const f of codes) console.log(showCode(f));
}
if (process.argv.includes("--missing") || bad.length || badCodes.length) {
  for (const { c, problem } of bad) console.error(`${c.element}: ${c.demand} — ${problem}`);
  for (const { f, problem } of badCodes)
    console.error(`${f.operationId} ${f.status}: error_code ${f.code} — ${problem}`);
}
const judged = all.filter((c) => !c.perOperation);
const seedCount = judged.filter((c) => c.provenance?.kind === "seed").length;
const decisionCount = judged.filter((c) => c.provenance?.kind === "decision").length;
const codeSeed = codes.filter((f) => f.grounds?.kind === "seed").length;
const codeDecision = codes.filter((f) => f.grounds?.kind === "decision").length;
console.log(
  `provenance: ${judged.length} constraints (${seedCount} seed, ${decisionCount} decision), ${bad.length} with a problem, ` +
    `and ${all.length - judged.length} error-body codes judged per operation; ` +
    `${codes.length} documented error codes of operations (${codeSeed} stated for their operation, ${codeDecision} decision), ${badCodes.length + badPassages.length} with a problem`,
);
process.exit(bad.length || badCodes.length || badPassages.length ? 1 : 0);
