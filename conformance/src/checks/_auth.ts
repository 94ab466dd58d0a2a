import type { ActiveCheck, CheckContext } from "../types.ts";
import { isObj, seen } from "./_util.ts";

/** Shared body of the two auth checks: every secured operation, with the given credential, answers 401 unauthorized. */
export function authCheck(id: string, rule: string, key: "none" | { invalid: string }): ActiveCheck {
  return {
    kind: "active",
    id,
    rule,
    section: "Authentication › REST (4); Errors (401)",
    severity: "critical",
    decisions: key === "none" ? ["D-AUTH-ORDER"] : ["D-KEY-ROTATION", "D-AUTH-ORDER"],
    profiles: ["readonly", "standard", "full"],
    mock: key === "none",
    lane: "anonymous",
    invalidRequests: key === "none", // a missing key breaks the security requirement; a wrong key does not
    async run(ctx: CheckContext) {
      for (const op of ctx.contract.operations.filter((o) => o.secured)) {
        const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => (n === "dataset_id" ? "ds_slkmissing000000000000" : `slk_missing_${n}`));
        const body = op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined;
        const ex = await ctx.req({ method: op.method, path, key, body });
        const b = ex.json;
        ctx.expect(ex.status === 401 && isObj(b) && b.error_code === "unauthorized", { title: `${id}: ${op.operationId} did not answer 401 unauthorized`, received: seen(ex), expected: { status: 401, body: { status: "client_error", error_code: "unauthorized", detail: "…", transient: false } } }, ex);
      }
    },
  };
}
