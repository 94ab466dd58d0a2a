// Rewrites conformance/src/seed-ledger/proofs.ts (row → the faults that break
// it, from the mutation faults' `rows`), docs/seed-ledger.md, the seed-ledger
// figure of conformance/README.md and the figure line of the root README.md
// from the ledger's data (conformance/src/seed-ledger/); the ledger's test
// compares them with a fresh render:
//   npx tsx conformance/scripts/update-seed-ledger.ts
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { faults } from "../mutation/faults.ts";
import { proofsSource } from "../mutation/proofs.ts";

const proofs = fileURLToPath(new URL("../src/seed-ledger/proofs.ts", import.meta.url));
writeFileSync(proofs, proofsSource(faults));
console.log(`fault proofs written to ${proofs}`);
// the render reads the proofs just written
const { seedCoverageLine, seedLedgerMarkdown, seedLedgerReadme } = await import("../src/seed-ledger/report.ts");

const doc = fileURLToPath(new URL("../../docs/seed-ledger.md", import.meta.url));
writeFileSync(doc, seedLedgerMarkdown());
console.log(`seed ledger written to ${doc}`);

const readme = fileURLToPath(new URL("../README.md", import.meta.url));
const text = readFileSync(readme, "utf8");
const start = "<!-- seed-ledger:start -->";
const end = "<!-- seed-ledger:end -->";
const a = text.indexOf(start);
const b = text.indexOf(end);
if (a < 0 || b < a) throw new Error("conformance/README.md lacks the seed-ledger markers");
writeFileSync(readme, text.slice(0, a + start.length) + seedLedgerReadme() + text.slice(b));
console.log(`seed-ledger figure written to ${readme}`);

const front = fileURLToPath(new URL("../../README.md", import.meta.url));
const page = readFileSync(front, "utf8");
const figure = /<!-- seed-figure -->.*?<!-- \/seed-figure -->/;
if (!figure.test(page)) throw new Error("README.md lacks the seed-figure markers");
writeFileSync(front, page.replace(figure, `<!-- seed-figure -->${seedCoverageLine()}<!-- /seed-figure -->`));
console.log(`seed-ledger figure written to ${front}`);
