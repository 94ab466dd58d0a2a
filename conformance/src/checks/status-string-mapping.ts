import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";

/** `status` follows the HTTP class; "info" on a 2xx is accepted with a warning (decision: lenient). */
const expectedFor = (code: number) =>
  code < 200 ? "info" : code < 300 ? "success" : code < 400 ? "redirect" : code < 500 ? "client_error" : "server_error";

export default defineCheck({
  id: "status-string-mapping",
  rule: 'Body `status` matches the HTTP class: 2xx success, 4xx client_error, 5xx server_error (2xx "info" accepted with a warning)',
  section: "Resources › Conventions › `status` mapping",
  severity: "major",
  rules: {
    seed: "1xx `info`, 2xx `success`, 3xx `redirect`, 4xx `client_error`, 5xx `server_error`.",
    decisions: [decision("D-STATUS-STRING", { title: /D-STATUS-STRING|"info"/ })],
  },
  mock: true,
  decisions: ["D-STATUS-STRING"],
  inspect(ex, ctx) {
    // every envelope, success or error, carries `status`
    const b = bodyOf<{ status: string }>(ex);
    if (!b || typeof b.status !== "string") return;
    const want = expectedFor(ex.status);
    if (b.status === want) return ctx.pass(ex);
    if (ctx.lenient("D-STATUS-STRING", ex)) return ctx.pass(ex);
    ctx.fail(ex, {
      title: `HTTP ${ex.status} body says status "${b.status}"`,
      received: b.status,
      expected: want,
    });
  },
});
