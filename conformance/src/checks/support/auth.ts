import type { CommonUnauthorizedError } from "../../../../generated/client/types.gen.ts";
import type { Operation } from "../../contract.ts";
import type { Exchange } from "../../http.ts";
import type { CheckContext } from "../../types.ts";
import { bodyOf } from "../../typed.ts";
import { seen } from "./util.ts";
import { groupForPath } from "../../groups/index.ts";

/** The assertion names of a check built on everyOperationAnswers401. */
export interface Auth401Judges {
  /** a seed row set: the 401 `unauthorized` of every other operation */
  refused: string;
  /** the same rule on GET /v1/prices, whose own row says it requires the key */
  prices: string;
  /** D-AUTH-ORDER: another stated refusal the deployment may give before it reads the key */
  order: string;
}

/**
 * Whether a refusal other than 401 may come before authentication: the seed
 * states no order between its refusals (D-AUTH-ORDER), so an unknown path id
 * (404), a refused body or query (400, 422), a rate limit kept per address
 * (429) or a transport refusal (413, 415, 408, 417, 431) may answer first.
 * A 2xx, a 403, a 5xx, or a 404 of an operation without a path id never may.
 */
function mayPrecedeAuth(op: Operation, ex: Exchange): boolean {
  const s = ex.status;
  if (s === 404) return op.params.some((p) => p.in === "path");
  if (s === 400 || s === 422) return !!op.bodySchema || op.params.some((p) => p.in === "query");
  return [408, 413, 415, 417, 429, 431].includes(s);
}

/**
 * The run of the two auth checks: every secured operation (a sample of one per
 * group and method in readonly) is sent with the given credential, and each
 * must answer 401 unauthorized (the seed); a refusal the seed also states for
 * that request, given before the key was read, is D-AUTH-ORDER's.
 */
export function everyOperationAnswers401(
  key: "none" | { invalid: string },
  judges: Auth401Judges,
): (ctx: CheckContext) => Promise<void> {
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
    const expected = {
      status: 401,
      body: { status: "client_error", error_code: "unauthorized", detail: "…", transient: false },
    };
    for (const op of ops) {
      const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
        n === "dataset_id" ? "ds_slkmissing000000000000" : `slk_missing_${n}`,
      );
      const body = op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined;
      const ex = await ctx.req({ method: op.method, path, key, body });
      const code = bodyOf<CommonUnauthorizedError>(ex)?.error_code;
      if (ex.status !== 401 && mayPrecedeAuth(op, ex)) {
        ctx.fail(
          {
            judges: judges.order,
            title: `${op.operationId} answered ${ex.status} before refusing the credential`,
            received: seen(ex),
            expected,
          },
          ex,
        );
        continue;
      }
      ctx.expect(
        ex.status === 401 && code === "unauthorized",
        {
          judges: op.key === "GET /v1/prices" ? judges.prices : judges.refused,
          title: `${op.operationId} answered ${ex.status}${typeof code === "string" ? ` ${code}` : ""}, not 401 unauthorized`,
          received: seen(ex),
          expected,
        },
        ex,
      );
    }
  };
}
