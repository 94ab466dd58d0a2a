import { defineCheck } from "../define-check.ts";
import { isObject } from "../typed.ts";
import { seen } from "./support/util.ts";

/** The deployment publishes its OpenAPI 3.1 document (info version 0.1.0) at /openapi.json and a viewer at /docs. */
export default defineCheck({
  id: "openapi-document-published",
  phase: "requests",
  rule: "GET {base_url}/openapi.json answers an OpenAPI 3.1 document with info.version 0.1.0; GET {base_url}/docs answers the viewer (200)",
  section: "Versioning (rule 5)",
  severity: "minor",
  rules: {
    seed: "A machine-readable OpenAPI 3.1 document (info version 0.1.0) is published at {base_url}/openapi.json and a hosted interactive viewer at {base_url}/docs.",
  },
  profiles: ["readonly", "standard", "full"],
  // the two paths are outside the contract: a validating proxy answers them itself
  invalidRequests: true,
  async run(ctx) {
    const doc = await ctx.req({ method: "GET", path: "/openapi.json", meta: { document: true } });
    const body: unknown = doc.json;
    const openapi = isObject(body) ? body.openapi : undefined;
    const info = isObject(body) && isObject(body.info) ? body.info : undefined;
    ctx.expect(
      doc.status === 200 && typeof openapi === "string" && /^3\.1(\.|$)/.test(openapi) && info?.version === "0.1.0",
      {
        title: `GET /openapi.json answered ${doc.status} with openapi ${JSON.stringify(openapi)}, info.version ${JSON.stringify(info?.version)}`,
        received: doc.status === 200 ? { openapi, info: { version: info?.version } } : seen(doc),
        expected: { status: 200, body: { openapi: "3.1.x", info: { version: "0.1.0" } } },
      },
      doc,
    );
    const viewer = await ctx.req({ method: "GET", path: "/docs", meta: { document: true } });
    ctx.expect(
      viewer.status === 200 && viewer.text.length > 0,
      {
        title: `GET /docs answered ${viewer.status}${viewer.text.length ? "" : " with an empty body"}`,
        received: { status: viewer.status, body: viewer.text.slice(0, 200) },
        expected: { status: 200, body: "the interactive viewer" },
      },
      viewer,
    );
  },
});
