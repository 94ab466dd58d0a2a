// /openapi.json (the generated document) and /docs (Swagger UI served from
// the installed swagger-ui-dist package, no CDN). Neither needs a key.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import { loadOpenApi } from "../platform/query-coercion.ts";
import { NotFoundError } from "../platform/errors.ts";

const require = createRequire(import.meta.url);
const uiDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Social Listening Research Service API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout" });`;

export function docsResource() {
  const app = new Hono();
  const contract = loadOpenApi() as ReturnType<typeof loadOpenApi> & { servers?: unknown };
  const cache = new Map<string, Buffer>();
  // D-SERVERS: the served document names the origin it was fetched from, so
  // "Try it out" in /docs calls this server whatever PORT or host it runs on.
  // A few origins at most (localhost, 127.0.0.1, a proxy name), so the
  // serialised copies are kept; the bound stops a Host-header flood.
  const byOrigin = new Map<string, string>();
  const documentFor = (origin: string): string => {
    let text = byOrigin.get(origin);
    if (!text) {
      text = JSON.stringify({ ...contract, servers: [{ url: origin, description: "This server" }] });
      if (byOrigin.size >= 16) byOrigin.clear();
      byOrigin.set(origin, text);
    }
    return text;
  };

  app.get("/openapi.json", (c) =>
    c.body(documentFor(new URL(c.req.url).origin), 200, { "content-type": "application/json; charset=utf-8" }),
  );
  app.get("/docs", (c) => c.html(PAGE));
  // init.js is answered inside /docs/:asset: a literal route beside the
  // parameter is a shape Hono's RegExpRouter refuses, and one such route
  // drops the whole app to the slower TrieRouter (throughput).
  app.get("/docs/:asset", (c) => {
    const asset = c.req.param("asset");
    if (asset === "init.js") return c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" });
    const type = ASSETS[asset];
    if (!type) throw new NotFoundError("not_found", "No such documentation asset.");
    let bytes = cache.get(asset);
    if (!bytes) cache.set(asset, (bytes = readFileSync(path.join(uiDir, asset))));
    return c.body(new Uint8Array(bytes), 200, { "content-type": type, "cache-control": "public, max-age=3600" });
  });
  return app;
}
