import type { CommonUnauthorizedError } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import { bodyOf } from "../../typed.ts";
import { seen } from "./util.ts";
import { groupForPath } from "../../groups/index.ts";

/**
 * The run of the two auth checks: every secured operation (a sample of one per
 * group and method in readonly) is sent with the given credential, and each
 * must answer 401 unauthorized.
 */
export function everyOperationAnswers401(key: "none" | { invalid: string }): (ctx: CheckContext) => Promise<void> {
  return async (ctx: CheckContext) => {
    const secured = ctx.contract.operations.filter((o) => o.secured);
    // readonly keeps a run within ~300 requests: one operation per group and method (every operation otherwise)
    const sampled = new Set<string>();
    const ops =
      ctx.settings.profile !== "readonly"
        ? secured
        : secured.filter((o) => {
            const k = `${groupForPath(ctx.contract, o.path)?.id ?? o.path}|${o.method}`;
            if (sampled.has(k)) return false;
            sampled.add(k);
            return true;
          });
    if (ops.length < secured.length)
      ctx.notExercised(
        `readonly profile: ${secured.length - ops.length} of ${secured.length} operations not sent (one per group and method)`,
      );
    for (const op of ops) {
      const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
        n === "dataset_id" ? "ds_slkmissing000000000000" : `slk_missing_${n}`,
      );
      const body = op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined;
      const ex = await ctx.req({ method: op.method, path, key, body });
      ctx.expect(
        ex.status === 401 && bodyOf<CommonUnauthorizedError>(ex)?.error_code === "unauthorized",
        {
          title: `${op.operationId} did not answer 401 unauthorized`,
          received: seen(ex),
          expected: {
            status: 401,
            body: { status: "client_error", error_code: "unauthorized", detail: "…", transient: false },
          },
        },
        ex,
      );
    }
  };
}
