// npm pack / npm publish of the kit: what the package carries besides bin/.
//  - dist/: the kit's TypeScript sources transpiled to JavaScript, file by
//    file (TypeScript's transpileModule, `./x.ts` imports rewritten to
//    `./x.js`). The package then needs no TypeScript loader at run time: tsx
//    and its esbuild, whose install script npm 11 asks every user to review,
//    stay out of a user's install, and the kit starts faster.
//  - contract/: the generated contract the kit reads at run time (OpenAPI
//    document, generated zod, transpiled like the sources, and the decision
//    table).
// `--clean` removes both afterwards, so the repository keeps one source.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const pkg = fileURLToPath(new URL("../", import.meta.url));
const contract = join(pkg, "contract");
const dist = join(pkg, "dist");

/** One TypeScript module as the ES module Node runs (types erased, relative `.ts` imports made `.js`). */
function transpile(from, to) {
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(from, "utf8"), {
    fileName: from,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      rewriteRelativeImportExtensions: true,
      verbatimModuleSyntax: false,
      isolatedModules: true,
      sourceMap: false,
    },
  });
  if (diagnostics?.length)
    throw new Error(`${relative(pkg, from)}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, " ")}`);
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, outputText);
}

function transpileTree(from, to) {
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (statSync(path).isDirectory()) transpileTree(path, join(to, name));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) transpile(path, join(to, name.replace(/\.ts$/, ".js")));
  }
}

if (process.argv.includes("--clean")) {
  rmSync(contract, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
} else {
  rmSync(dist, { recursive: true, force: true });
  transpileTree(join(pkg, "src"), dist);
  const generated = fileURLToPath(new URL("../../generated/", import.meta.url));
  mkdirSync(join(contract, "client"), { recursive: true });
  cpSync(`${generated}openapi.json`, join(contract, "openapi.json"));
  transpile(`${generated}client/zod.gen.ts`, join(contract, "client", "zod.gen.js"));
  // the decision table: findings name a decision with what it decided and what the seed says (src/attribution.ts)
  cpSync(fileURLToPath(new URL("../../spec/DECISIONS.md", import.meta.url)), join(contract, "DECISIONS.md"));
}
