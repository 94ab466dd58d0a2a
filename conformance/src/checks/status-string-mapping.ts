import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";

/** `status` follows the HTTP class; "info" on a 2xx is accepted with a warning (decision: lenient). */
const expectedFor = (code: number) =>
  code < 200 ? "info" : code < 300 ? "success" : code < 400 ? "redirect" : code < 500 ? "client_error" : "server_error";

export default defineCheck({
  id: "status-string-mapping",
  rule: 'Body `status` matches the HTTP class: 2xx success, 4xx client_error, 5xx server_error (2xx "info" accepted with a warning)',
  section: "Resources › Conventions › `status` mapping",
  severity: "major",
  // "info" on a 2xx is the unsettled row conventions.status-info-samples: tolerated with a warning (D-STATUS-STRING)
  asserts: {
    mapping: seed(
      "conventions.status-mapping",
      words("2xx success"),
      words("3xx redirect"),
      words("4xx client_error"),
      words("5xx server_error"),
    ),
    info: decided("D-STATUS-STRING"),
  },
  mock: true,
  inspect(ex, ctx) {
    // every envelope, success or error, carries `status`
    const b = bodyOf<{ status: string }>(ex);
    if (!b || typeof b.status !== "string") return;
    const want = expectedFor(ex.status);
    if (b.status === want) return ctx.pass(ex);
    if (ctx.lenient("D-STATUS-STRING", ex)) return ctx.pass(ex);
    ctx.fail(ex, {
      judges: "mapping",
      title: `HTTP ${ex.status} body says status "${b.status}"`,
      received: b.status,
      expected: want,
    });
  },
});
