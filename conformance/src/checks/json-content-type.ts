import type { ResponseCheck } from "../types.ts";

/** Every response with a body is JSON and says so. */
const check: ResponseCheck = {
  kind: "response",
  id: "json-content-type",
  rule: "Every response with a body has Content-Type application/json and parses as JSON",
  section: "What the service does › All bodies are JSON",
  severity: "major",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.text.length === 0) return;
    const ct = ex.headers["content-type"] ?? "";
    if (!/^application\/json\b/i.test(ct))
      return ctx.fail(ex, {
        title: "json-content-type: wrong Content-Type",
        received: ct || "(none)",
        expected: "application/json",
      });
    if (ex.jsonError)
      return ctx.fail(ex, {
        title: "json-content-type: body is not valid JSON",
        received: ex.text.slice(0, 200),
        expected: "JSON",
        message: ex.jsonError,
      });
    ctx.pass(ex);
  },
};
export default check;
