import { defineCheck } from "../define-check.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

/** After waiting Retry-After seconds the key works again. */
export default defineCheck({
  id: "rate-limit-recovers",
  phase: "rate-limit",
  rule: "After waiting Retry-After seconds, the throttled key's next request succeeds",
  section: "Limits › Request rate (3); Errors (429, transient)",
  severity: "major",
  rules: {
    seed: "Recommended client behaviour is exponential backoff with jitter, preferring `Retry-After`.",
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    const b = await burst(ctx);
    if (!b.first429) ctx.skip("the burst produced no 429 (rate-limit-burst-429 reports it)");
    ctx.expect(
      b.after?.status === 200,
      {
        title: `after Retry-After (${b.first429!.headers["retry-after"]}s) the key still got ${b.after?.status}`,
        received: b.after ? seen(b.after) : "(not sent)",
        expected: { status: 200 },
      },
      b.after,
    );
  },
});
