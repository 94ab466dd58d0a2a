// npm pack / npm publish of the kit: copy the generated contract the kit reads
// at run time (OpenAPI document, generated zod, the decision table) into the package, and
// remove the copy afterwards (`--clean`) so the repository keeps one source.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../", import.meta.url));
const out = `${pkg}contract`;
if (process.argv.includes("--clean")) {
  rmSync(out, { recursive: true, force: true });
} else {
  const generated = fileURLToPath(new URL("../../generated/", import.meta.url));
  mkdirSync(`${out}/client`, { recursive: true });
  cpSync(`${generated}openapi.json`, `${out}/openapi.json`);
  cpSync(`${generated}client/zod.gen.ts`, `${out}/client/zod.gen.ts`);
  // the decision table: findings name a decision with what it decided and what the seed says (src/attribution.ts)
  cpSync(fileURLToPath(new URL("../../spec/DECISIONS.md", import.meta.url)), `${out}/DECISIONS.md`);
}
