import { decision, defineCheck } from "../define-check.ts";

const NAMES = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"];

/** Every authenticated response carries RateLimit-Limit/Remaining/Reset; a 429 also carries Retry-After. */
export default defineCheck({
  id: "rate-limit-headers",
  rule: "Every authenticated response carries integer RateLimit-Limit, RateLimit-Remaining (<= Limit) and RateLimit-Reset; a 429 carries Retry-After",
  section: "Limits › Request rate (2)",
  severity: "major",
  rules: {
    seed: "Every authenticated response carries `RateLimit-Limit` (the cap), `RateLimit-Remaining` (calls left in the current second window) and `RateLimit-Reset` (seconds until the bucket fully resets).",
    decisions: [
      decision("D-RATE-WINDOW", { title: /Reset/ }),
      // "every authenticated response": a refusal of the request's shape may come before authentication (the order is D-AUTH-ORDER)
      decision("D-AUTH-ORDER", { title: /^no RateLimit header on a refusal/ }),
    ],
  },
  decisions: ["D-AUTH-ORDER", "D-RATE-WINDOW"],
  mock: false, // Prism echoes example headers only on some responses
  inspect(ex, ctx) {
    if (ex.keyRole === "none" || ex.keyRole === "invalid" || ex.status === 401) return;
    const missing = NAMES.filter((n) => !/^\d+$/.test(ex.headers[n] ?? ""));
    if (ex.status === 429 && !/^\d+$/.test(ex.headers["retry-after"] ?? "")) missing.push("retry-after");
    if (missing.length) {
      return ctx.fail(ex, {
        title:
          missing.length >= NAMES.length && mayPrecedeAuth(ex.status, !!ex.op)
            ? `no RateLimit header on a refusal a deployment may give before authenticating (${ex.status})`
            : `missing or non-integer ${missing.join(", ")}`,
        received: Object.fromEntries([...NAMES, "retry-after"].map((n) => [n, ex.headers[n] ?? "(absent)"])),
        expected: "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset as non-negative integers",
      });
    }
    // the seed's cap is 5 a second; an enterprise plan may negotiate more, never less
    if (Number(ex.headers["ratelimit-limit"]) < 5) {
      return ctx.fail(ex, {
        title: `RateLimit-Limit ${ex.headers["ratelimit-limit"]} is below the seed's 5 requests per second`,
        received: { limit: ex.headers["ratelimit-limit"] },
        expected: "RateLimit-Limit >= 5",
      });
    }
    if (Number(ex.headers["ratelimit-remaining"]) > Number(ex.headers["ratelimit-limit"])) {
      return ctx.fail(ex, {
        title: "RateLimit-Remaining exceeds RateLimit-Limit",
        received: { limit: ex.headers["ratelimit-limit"], remaining: ex.headers["ratelimit-remaining"] },
        expected: "remaining <= limit",
      });
    }
    ctx.pass(ex);
  },
});

/**
 * A refusal of the request's shape (400, 422, or a 404 of a path no operation
 * has) may be given before the key is looked at: the seed leaves the order
 * open, so such an answer is not known to be an authenticated response.
 */
function mayPrecedeAuth(status: number, routed: boolean): boolean {
  return status === 400 || status === 422 || (status === 404 && !routed);
}
