import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { bound, header, words } from "../grounding/facts.ts";

const NAMES = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"];
const INTEGER = /^\d+$/;
const NUMBER = /^\d+(\.\d+)?$/;

/**
 * Every authenticated response carries RateLimit-Limit (the cap: at least the
 * seed's 5 a second), RateLimit-Remaining (the calls left in the current
 * one-second window: at most Limit − 1 once a successful call was counted,
 * 0 on a 429) and RateLimit-Reset (the seconds until the bucket fully resets:
 * within the one-second window); a 429 carries Retry-After in whole seconds.
 * Each response is judged on its own; rate-limit-burst-429 judges how the
 * figures move from one call to the next.
 */
export default defineCheck({
  id: "rate-limit-headers",
  rule: "Every authenticated response carries RateLimit-Limit (an integer of at least 5), RateLimit-Remaining (an integer: at most Limit − 1 on a 2xx, 0 on a 429, at most Limit otherwise) and RateLimit-Reset (a number of seconds from 0 to 1, the one-second window; whole seconds by D-RATE-WINDOW); a 429 carries Retry-After in whole seconds",
  section: "Limits › Request rate (1, 2); Errors (429: Retry-After)",
  severity: "major",
  asserts: {
    present: seed(
      "rate-limit.headers",
      words("Every authenticated response carries"),
      header("RateLimit-Limit"),
      header("RateLimit-Remaining"),
      header("RateLimit-Reset"),
    ),
    cap: seed(["rate-limit.five-per-second", "rate-limit.headers"], bound(5), words("RateLimit-Limit (the cap)")),
    remaining: seed("rate-limit.headers", words("RateLimit-Remaining (calls left in the current second window)")),
    reset: seed(
      "rate-limit.headers",
      words("RateLimit-Reset (seconds until the bucket fully resets)"),
      words("current second window"),
    ),
    "retry-after": seed("errors.retry-after", header("Retry-After"), words("rounded up to whole seconds")),
    // "every authenticated response": a refusal of the request's shape may come before authentication
    order: decided("D-AUTH-ORDER"),
    // whole seconds in RateLimit-Reset: the seed says "seconds", the contract says an integer
    "whole-seconds": decided("D-RATE-WINDOW"),
  },
  mock: false, // Prism echoes example headers only on some responses
  inspect(ex, ctx) {
    if (ex.keyRole === "none" || ex.keyRole === "invalid" || ex.status === 401) return;
    const h = (n: string) => ex.headers[n];
    const received = Object.fromEntries([...NAMES, "retry-after"].map((n) => [n, h(n) ?? "(absent)"]));
    const absent = NAMES.filter((n) => h(n) === undefined);
    if (absent.length) {
      const early = absent.length === NAMES.length && mayPrecedeAuth(ex.status, !!ex.op);
      return ctx.fail(ex, {
        judges: early ? "order" : "present",
        title: early
          ? `no RateLimit header on a refusal a deployment may give before authenticating (${ex.status})`
          : `missing ${absent.join(", ")}`,
        received,
        expected: "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
      });
    }
    // one finding per (operation, status, title): the titles name the broken figure, `received` its value
    const holds = (cond: boolean, f: Parameters<typeof ctx.fail>[1]): boolean => {
      if (!cond) ctx.fail(ex, f);
      return cond;
    };
    let held = true;
    const limit = h("ratelimit-limit")!;
    const remaining = h("ratelimit-remaining")!;
    const reset = h("ratelimit-reset")!;
    // the cap: an integer count of calls, never below the seed's 5 a second (an enterprise plan may have more)
    held &&= holds(INTEGER.test(limit) && Number(limit) >= 5, {
      judges: "cap",
      title: "RateLimit-Limit is not a cap of at least 5 requests per second",
      received,
      expected: "RateLimit-Limit >= 5",
    });
    if (INTEGER.test(limit)) {
      // the calls left: a counted success leaves at most Limit − 1, a 429 leaves none
      const max = ex.status >= 200 && ex.status < 300 ? Number(limit) - 1 : Number(limit);
      const ok = INTEGER.test(remaining) && (ex.status === 429 ? Number(remaining) === 0 : Number(remaining) <= max);
      held &&= holds(ok, {
        judges: "remaining",
        title:
          ex.status === 429
            ? "a 429 says calls were left (RateLimit-Remaining above 0)"
            : `RateLimit-Remaining on a ${ex.status} is not an integer within the calls RateLimit-Limit leaves`,
        received,
        expected: ex.status === 429 ? { "ratelimit-remaining": "0" } : `an integer from 0 to ${max}`,
      });
    }
    // seconds until the bucket fully resets: within the one-second window
    held &&= holds(NUMBER.test(reset) && Number(reset) <= 1, {
      judges: "reset",
      title: "RateLimit-Reset is not a number of seconds within the one-second window",
      received,
      expected: "a number of seconds from 0 to 1",
    });
    if (NUMBER.test(reset) && !INTEGER.test(reset))
      held &&= holds(false, {
        judges: "whole-seconds",
        title: "RateLimit-Reset is not whole seconds",
        received,
        expected: "an integer number of seconds",
      });
    if (ex.status === 429)
      held &&= holds(INTEGER.test(h("retry-after") ?? ""), {
        judges: "retry-after",
        title: "a 429 carries no Retry-After in whole seconds",
        received,
        expected: { "retry-after": "<whole seconds>" },
      });
    if (held) ctx.pass(ex);
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
