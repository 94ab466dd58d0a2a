import type { ResponseCheck } from "../types.ts";

/** Every documented response body validates against the generated zod of its operation and status. */
const check: ResponseCheck = {
  kind: "response",
  id: "response-schema-conformance",
  rule: "Every response body validates against the generated zod schema of its operation and status",
  section: "Resources (every model); generated/client/zod.gen.ts",
  severity: "critical",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    const spec = ex.op?.responses.get(String(ex.status));
    if (!ex.op || !spec) return; // undocumented statuses are documented-status-only's business
    if (!spec.hasJson) return; // empty bodies: empty-body-204
    if (!spec.zod) {
      ctx.warn(`response-schema-conformance: no generated zod for ${ex.op.operationId} ${ex.status} (${spec.schemaRef ?? "inline schema"})`);
      return;
    }
    if (ex.jsonError || ex.text.length === 0) return ctx.fail(ex, { title: `response-schema-conformance: ${ex.op.operationId} ${ex.status} body is not JSON`, received: ex.text.slice(0, 200), expected: spec.schemaRef });
    const r = spec.zod.safeParse(ex.json);
    if (r.success) return ctx.pass(ex);
    if (ex.status === 422 && (ex.json as any)?.error_code === "unprocessable_entity") {
      ctx.warn("response-schema-conformance: 422 envelope with unprocessable_entity instead of the validation body (lenient, D-UNPROCESSABLE)", ex);
      return ctx.pass(ex);
    }
    const issues = r.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), problem: i.message, received: pick(ex.json, i.path as PropertyKey[]) }));
    ctx.fail(ex, { title: `response-schema-conformance: ${ex.op.operationId} ${ex.status} body does not match ${spec.schemaRef}`, received: issues, expected: `#/components/schemas/${spec.schemaRef} (${spec.zodName})` });
  },
};

function pick(v: unknown, path: PropertyKey[]): unknown {
  let cur: any = v;
  for (const p of path) cur = cur?.[p as any];
  return cur === undefined ? "(missing)" : cur;
}
export default check;
