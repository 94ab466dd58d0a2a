// Rewrites the catalogue table of conformance/README.md from the check registry:
//   npx tsx conformance/scripts/update-readme.ts
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { catalogueMarkdown } from "../src/catalogue.ts";

const path = fileURLToPath(new URL("../README.md", import.meta.url));
const readme = readFileSync(path, "utf8");
const start = "<!-- catalogue:start -->";
const end = "<!-- catalogue:end -->";
const a = readme.indexOf(start);
const b = readme.indexOf(end);
if (a < 0 || b < a) throw new Error("README lacks the catalogue markers");
writeFileSync(path, readme.slice(0, a + start.length) + "\n" + catalogueMarkdown() + readme.slice(b));
console.log(`catalogue written to ${path}`);
