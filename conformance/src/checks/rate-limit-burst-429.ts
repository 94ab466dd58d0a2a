import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import type { CommonTooManyRequestsError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

/** A burst over RateLimit-Limit gets 429 with the documented body; Retry-After == ceil(retry_after_seconds). */
export default defineCheck({
  id: "rate-limit-burst-429",
  phase: "rate-limit",
  rule: "A burst above RateLimit-Limit gets 429 too_many_requests (transient true, retry_after_seconds) with Retry-After = ceil(retry_after_seconds)",
  section: "Limits › Request rate (1, 3); Errors (429 body)",
  severity: "critical",
  rules: {
    seed: "Over the cap: 429 as in Errors. … The `Retry-After` header carries the same wait rounded up to whole seconds.",
    decisions: [decision("D-RATE-WINDOW", { title: /D-RATE-WINDOW|window/ })],
  },
  decisions: ["D-RATE-WINDOW"],
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    const b = await burst(ctx);
    const ex = b.first429;
    if (
      !ctx.expect(
        !!ex,
        {
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
    const header = ex!.headers["retry-after"];
    const seconds = body?.retry_after_seconds;
    if (typeof seconds === "number") {
      ctx.expect(
        header !== undefined && Number(header) === Math.ceil(seconds),
        {
          title: "Retry-After is not ceil(retry_after_seconds)",
          received: { "Retry-After": header ?? "(absent)", retry_after_seconds: seconds },
          expected: { "Retry-After": String(Math.ceil(seconds)) },
        },
        ex,
      );
    }
    // D-RATE-WINDOW: lenient on the window algorithm (one burst may straddle a window boundary), strict on the advertised rate:
    // every burst over the limit is retried once in fresh windows, and the limit must hold in one of them
    const within = b.successes.some((n) => n <= b.limit);
    if (within && b.successes.length > 1) ctx.lenient("D-RATE-WINDOW", b.burst[0]);
    ctx.expect(
      within,
      {
        title: "more requests succeeded in one burst than RateLimit-Limit allows",
        received: `${b.successes.join(" then ")} of ${b.burst.length / b.successes.length} simultaneous requests succeeded`,
        expected: `at most ${b.limit} (RateLimit-Limit) per one-second window`,
      },
      b.burst.at(-1),
    );
  },
});
