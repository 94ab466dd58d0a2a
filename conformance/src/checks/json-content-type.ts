import { defineCheck } from "../define-check.ts";

/** Every response with a body is JSON and says so. */
export default defineCheck({
  id: "json-content-type",
  rule: "Every response with a body has Content-Type application/json and parses as JSON",
  section: "What the service does › All bodies are JSON",
  severity: "major",
  rules: { seed: "All bodies are JSON." },
  mock: true,
  inspect(ex, ctx) {
    if (ex.text.length === 0) return;
    const ct = ex.headers["content-type"] ?? "";
    if (!/^application\/json\b/i.test(ct))
      return ctx.fail(ex, {
        title: "wrong Content-Type",
        received: ct || "(none)",
        expected: "application/json",
      });
    if (ex.jsonError)
      return ctx.fail(ex, {
        title: "body is not valid JSON",
        received: ex.text.slice(0, 200),
        expected: "JSON",
        message: ex.jsonError,
      });
    ctx.pass(ex);
  },
});
