import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";

/** Authentication runs first: a 401 carries no RateLimit-* headers (no key is known). */
export default defineCheck({
  id: "unauthenticated-no-ratelimit-headers",
  rule: "A 401 (missing or invalid key) carries no RateLimit-* headers: authentication runs before the rate limit",
  section: "Limits › Request rate (2: every authenticated response)",
  severity: "minor",
  // the seed puts the headers on every authenticated response and says nothing of the others
  asserts: { order: decided("D-AUTH-ORDER") },
  inspect(ex, ctx) {
    if (ex.status !== 401) return;
    const present = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].filter((h) => h in ex.headers);
    if (present.length)
      return ctx.fail(ex, {
        judges: "order",
        title: `a 401 carries ${present.join(", ")}`,
        received: Object.fromEntries(present.map((h) => [h, ex.headers[h]])),
        expected: "no RateLimit-* headers on a 401",
      });
    ctx.pass(ex);
  },
});
