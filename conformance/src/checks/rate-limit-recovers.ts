import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { header, words } from "../grounding/facts.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

/** After waiting Retry-After seconds the key works again: the header carries the wait (seed). */
export default defineCheck({
  id: "rate-limit-recovers",
  phase: "rate-limit",
  rule: "After waiting Retry-After seconds, the throttled key's next request is not refused with 429",
  section: "Limits › Request rate (3); Errors (429: Retry-After carries the wait)",
  severity: "major",
  asserts: {
    recovers: seed(
      ["rate-limit.retry-after-works", "errors.retry-after"],
      header("Retry-After"),
      words("preferring Retry-After"),
      words("carries the same wait"),
    ),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    const b = await burst(ctx);
    if (!b.first429) ctx.skip("the burst produced no 429 (rate-limit-burst-429 reports it)");
    ctx.expect(
      !!b.after && b.after.status !== 429,
      {
        judges: "recovers",
        title: `after Retry-After (${b.waited?.headers["retry-after"] ?? "(absent)"}s) the key still got ${b.after?.status}`,
        received: b.after ? seen(b.after) : "(not sent)",
        expected: "not 429",
      },
      b.after,
    );
  },
});
