import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, header, status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { bodyOf } from "../typed.ts";
import type { CommonTooManyRequestsError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

const num = (ex: Exchange, h: string): number | undefined => {
  const v = ex.headers[h];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
};
const ok = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

/**
 * Over the cap a request gets 429 too_many_requests with the documented body
 * and Retry-After = ceil(retry_after_seconds) (the seed). From a bucket left
 * alone past its reset, sequential calls count RateLimit-Remaining down by one
 * from Limit − 1 to 0, and the call after 0 is the 429: the exact reading of
 * "the cap" and "calls left in the current second window", judged from the
 * figures the deployment itself reports. A fixed window may start anew during
 * the countdown (Remaining back at Limit − 1); after a second any window may
 * have freed calls. More successes than the cap in one burst is the seed's
 * too; a burst that straddles a window boundary once is D-RATE-WINDOW's.
 */
export default defineCheck({
  id: "rate-limit-burst-429",
  phase: "rate-limit",
  rule: "From a reset bucket, sequential calls report RateLimit-Remaining Limit − 1, Limit − 2, … 0 and the next call gets 429 (never a 429 while calls are left, never a success after 0 in the same window); a burst above RateLimit-Limit gets 429 too_many_requests (status client_error, transient true, retry_after_seconds) with Retry-After = ceil(retry_after_seconds), and no more successes than the cap in one window",
  section: "Limits › Request rate (1, 2, 3); Errors (429 body)",
  severity: "critical",
  asserts: {
    throttled: seed(
      ["rate-limit.429", "errors.429-code"],
      words("Over the cap"),
      status(429),
      code("too_many_requests"),
    ),
    body: seed(
      "errors.429-body",
      words("status: client_error"),
      code("too_many_requests"),
      words("transient: true"),
      field("retry_after_seconds"),
      words("retry_after_seconds: number"),
    ),
    "retry-after": seed(
      "errors.retry-after",
      header("Retry-After"),
      words("the same wait rounded up to whole seconds"),
    ),
    cap: seed(["rate-limit.headers", "rate-limit.429"], words("RateLimit-Limit (the cap)"), words("Over the cap")),
    full: seed(
      "rate-limit.headers",
      words("RateLimit-Remaining (calls left in the current second window)"),
      words("RateLimit-Reset (seconds until the bucket fully resets)"),
    ),
    countdown: seed(["rate-limit.headers", "rate-limit.429"], words("calls left in the current second window")),
    window: decided("D-RATE-WINDOW"),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    const b = await burst(ctx);
    judgeCountdown(ctx, b.countdown);
    const ex = b.first429;
    if (
      !ctx.expect(
        !!ex,
        {
          judges: "throttled",
          title: `${b.burst.length} simultaneous requests at a limit of ${b.limit}/s got no 429`,
          received: b.burst.map((e) => e.status),
          expected: `at least one 429 after ${b.limit} requests in one second`,
        },
        b.burst.at(-1),
      )
    )
      return;
    const body = bodyOf<CommonTooManyRequestsError>(ex!);
    ctx.expect(
      !!body &&
        body.status === "client_error" &&
        body.error_code === "too_many_requests" &&
        body.transient === true &&
        typeof body.retry_after_seconds === "number",
      {
        judges: "body",
        title: "429 body is not the documented one",
        received: seen(ex!),
        expected: {
          status: "client_error",
          error_code: "too_many_requests",
          detail: "…",
          transient: true,
          retry_after_seconds: "<number>",
        },
      },
      ex,
    );
    const retryAfter = ex!.headers["retry-after"];
    const seconds = body?.retry_after_seconds;
    if (typeof seconds === "number") {
      ctx.expect(
        retryAfter !== undefined && Number(retryAfter) === Math.ceil(seconds),
        {
          judges: "retry-after",
          title: "Retry-After is not ceil(retry_after_seconds)",
          received: { "Retry-After": retryAfter ?? "(absent)", retry_after_seconds: seconds },
          expected: { "Retry-After": String(Math.ceil(seconds)) },
        },
        ex,
      );
    }
    // D-RATE-WINDOW: lenient on the window algorithm (one burst may straddle a window boundary), strict on the advertised rate:
    // every burst over the limit is retried once in fresh windows, and the limit must hold in one of them
    // a burst that took longer than a second to send and answer (a busy client machine) spans windows: it says
    // nothing of the cap; only bursts that landed within one second are judged
    const compact = b.successes.filter((_, i) => (b.spans[i] ?? 0) <= 1000);
    if (!compact.length)
      return ctx.notExercised(
        `the cap per window: every burst took longer than a second (${b.spans.map((ms) => `${ms} ms`).join(", ")}), so it spanned windows`,
      );
    const within = compact.some((n) => n <= b.limit);
    if (within && b.successes.length > 1) ctx.lenient("D-RATE-WINDOW", b.burst[0]);
    ctx.expect(
      within,
      {
        judges: "cap",
        title: "more requests succeeded in one burst than RateLimit-Limit allows",
        received: `${b.successes.join(" then ")} of ${b.burst.length / b.successes.length} simultaneous requests succeeded (in ${b.spans.map((ms) => `${ms} ms`).join(" then ")})`,
        expected: `at most ${b.limit} (RateLimit-Limit) per one-second window`,
      },
      b.burst.at(-1),
    );
  },
});

/**
 * The countdown, call by call. The first call finds the bucket reset:
 * Remaining is Limit − 1 (its own call counted). Each next call, while no
 * second has passed since the first and no new fixed window began
 * (Remaining back at Limit − 1), leaves one call fewer; a 429 comes only
 * once Remaining said 0, and a success never follows a 0 in the same window.
 */
function judgeCountdown(ctx: CheckContext<"full" | "countdown">, steps: Exchange[]): void {
  const first = steps[0];
  if (!first || !ok(first)) {
    ctx.notExercised(`the countdown's first call answered ${first?.status ?? "nothing"}`);
    return;
  }
  const limit = num(first, "ratelimit-limit");
  const left = num(first, "ratelimit-remaining");
  if (limit === undefined || left === undefined) {
    ctx.notExercised("the countdown's first call carries no integer RateLimit-Limit and RateLimit-Remaining");
    return;
  }
  const figures = (xs: Exchange[]) =>
    xs.map((e) => `${e.status} remaining ${e.headers["ratelimit-remaining"] ?? "(absent)"}`);
  const t0 = first.started ?? Date.now();
  if (
    !ctx.expect(
      left === limit - 1,
      {
        judges: "full",
        title: `the first call after the bucket reset says RateLimit-Remaining ${left} at RateLimit-Limit ${limit}`,
        received: { "ratelimit-limit": limit, "ratelimit-remaining": left },
        expected: { "ratelimit-remaining": limit - 1 },
      },
      first,
    )
  )
    return;
  for (let i = 1; i < steps.length; i++) {
    const a = steps[i - 1]!;
    const b = steps[i]!;
    const ra = num(a, "ratelimit-remaining");
    if (!ok(a) || ra === undefined) return;
    // a second after the first call, calls of a sliding window may have left it
    const late = (b.started ?? Date.now()) + b.ms - t0 > 1000;
    if (b.status === 429) {
      ctx.expect(
        ra === 0 || late,
        {
          judges: "countdown",
          title: `call ${i + 1} of the countdown got 429 although the call before said ${ra} call(s) left`,
          received: figures(steps.slice(0, i + 1)),
          expected: `a success (RateLimit-Remaining ${ra})`,
        },
        b,
      );
      return;
    }
    if (!ok(b)) return ctx.notExercised(`call ${i + 1} of the countdown answered ${b.status}`);
    const rb = num(b, "ratelimit-remaining");
    if (rb === undefined) return;
    const fresh = rb === limit - 1;
    const counted = ctx.expect(
      rb === ra - 1 || fresh || (late && rb >= ra - 1),
      {
        judges: "countdown",
        title:
          ra === 0
            ? `call ${i + 1} of the countdown succeeded although the call before said no call was left`
            : `call ${i + 1} of the countdown says RateLimit-Remaining ${rb} after ${ra}`,
        received: figures(steps.slice(0, i + 1)),
        expected: ra === 0 ? "429 (or a new window: Remaining back at Limit − 1)" : `RateLimit-Remaining ${ra - 1}`,
      },
      b,
    );
    if (!counted) return;
  }
  if (steps.at(-1)?.status !== 429) ctx.notExercised(`${steps.length} sequential calls met no 429`);
}
