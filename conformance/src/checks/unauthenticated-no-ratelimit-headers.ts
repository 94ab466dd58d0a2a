import { decision, defineCheck } from "../define-check.ts";

/** Authentication runs first: a 401 carries no RateLimit-* headers (no key is known). */
export default defineCheck({
  id: "unauthenticated-no-ratelimit-headers",
  rule: "A 401 (missing or invalid key) carries no RateLimit-* headers: authentication runs before the rate limit",
  section: "Limits › Request rate (2: every authenticated response)",
  severity: "minor",
  rules: { decisions: [decision("D-AUTH-ORDER")] },
  decisions: ["D-AUTH-ORDER"],
  inspect(ex, ctx) {
    if (ex.status !== 401) return;
    const present = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].filter((h) => h in ex.headers);
    if (present.length)
      return ctx.fail(ex, {
        title: `a 401 carries ${present.join(", ")}`,
        received: Object.fromEntries(present.map((h) => [h, ex.headers[h]])),
        expected: "no RateLimit-* headers on a 401",
      });
    ctx.pass(ex);
  },
});
