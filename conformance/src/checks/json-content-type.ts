import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";

/**
 * Every response body is JSON (the seed). That it is labelled
 * `Content-Type: application/json` is D-JSON-MEDIA-TYPE's: the seed says
 * bodies are JSON, not how an answer declares it.
 */
export default defineCheck({
  id: "json-content-type",
  rule: "Every response with a body parses as JSON, and has Content-Type application/json (D-JSON-MEDIA-TYPE)",
  section: "What the service does › All bodies are JSON",
  severity: "major",
  asserts: {
    json: seed("service.json-bodies", words("All bodies are JSON")),
    "media-type": decided("D-JSON-MEDIA-TYPE"),
  },
  mock: true,
  inspect(ex, ctx) {
    if (ex.text.length === 0) return;
    if (ex.jsonError)
      return ctx.fail(ex, {
        judges: "json",
        title: "body is not valid JSON",
        received: ex.text.slice(0, 200),
        expected: "JSON",
        message: ex.jsonError,
      });
    const ct = ex.headers["content-type"] ?? "";
    if (!/^application\/json\b/i.test(ct))
      return ctx.fail(ex, {
        judges: "media-type",
        title: "wrong Content-Type",
        received: ct || "(none)",
        expected: "application/json",
      });
    ctx.pass(ex);
  },
});
