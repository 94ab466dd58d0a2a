import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { isObject } from "../typed.ts";
import { is2xx, seen } from "./support/util.ts";

const ROW = "versioning.openapi-document";

/** The deployment publishes its OpenAPI 3.1 document (info version 0.1.0) at /openapi.json and a viewer at /docs. */
export default defineCheck({
  id: "openapi-document-published",
  phase: "requests",
  rule: "GET {base_url}/openapi.json answers (2xx) an OpenAPI 3.1 document whose info.version is 0.1.0; GET {base_url}/docs answers (2xx) a non-empty viewer",
  section: "Versioning (rule 5)",
  severity: "minor",
  asserts: {
    document: seed(ROW, words("OpenAPI 3.1 document"), words("published at {base_url}/openapi.json")),
    version: seed(ROW, words("info version 0.1.0")),
    viewer: seed(ROW, words("a hosted interactive viewer at {base_url}/docs")),
  },
  profiles: ["readonly", "standard", "full"],
  // the two paths are outside the contract: a validating proxy answers them itself
  invalidRequests: true,
  async run(ctx) {
    const doc = await ctx.req({ method: "GET", path: "/openapi.json", meta: { document: true } });
    const body: unknown = doc.json;
    const openapi = isObject(body) ? body.openapi : undefined;
    const info = isObject(body) && isObject(body.info) ? body.info : undefined;
    const published = ctx.expect(
      is2xx(doc) && typeof openapi === "string" && /^3\.1(\.|$)/.test(openapi),
      {
        judges: "document",
        title: `GET /openapi.json answered ${doc.status} with openapi ${JSON.stringify(openapi)}`,
        received: is2xx(doc) ? { openapi } : seen(doc),
        expected: { status: "2xx", body: { openapi: "3.1.x" } },
      },
      doc,
    );
    if (published)
      ctx.expect(
        info?.version === "0.1.0",
        {
          judges: "version",
          title: `the OpenAPI document's info.version is ${JSON.stringify(info?.version)}, not 0.1.0`,
          received: { info: { version: info?.version } },
          expected: { info: { version: "0.1.0" } },
        },
        doc,
      );
    const viewer = await ctx.req({ method: "GET", path: "/docs", meta: { document: true } });
    ctx.expect(
      is2xx(viewer) && viewer.text.length > 0,
      {
        judges: "viewer",
        title: `GET /docs answered ${viewer.status}${viewer.text.length ? "" : " with an empty body"}`,
        received: { status: viewer.status, body: viewer.text.slice(0, 200) },
        expected: { status: "2xx", body: "the interactive viewer" },
      },
      viewer,
    );
  },
});
