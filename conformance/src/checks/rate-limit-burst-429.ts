import type { ActiveCheck } from "../types.ts";
import { isObj, seen } from "./_util.ts";
import { burst } from "./_burst.ts";

/** A burst over RateLimit-Limit gets 429 with the documented body; Retry-After == ceil(retry_after_seconds). */
const check: ActiveCheck = {
  kind: "active",
  id: "rate-limit-burst-429",
  rule: "A burst above RateLimit-Limit gets 429 too_many_requests (transient true, retry_after_seconds) with Retry-After = ceil(retry_after_seconds)",
  section: "Limits › Request rate (1, 3); Errors (429 body)",
  severity: "critical",
  profiles: ["readonly", "standard", "full"],
  mock: false,
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const b = await burst(ctx);
    const ex = b.first429;
    if (!ctx.expect(!!ex, { title: `rate-limit-burst-429: ${b.burst.length} simultaneous requests at a limit of ${b.limit}/s got no 429`, received: b.burst.map((e) => e.status), expected: `at least one 429 after ${b.limit} requests in one second` }, b.burst.at(-1))) return;
    const body = ex!.json as any;
    ctx.expect(isObj(body) && body.status === "client_error" && body.error_code === "too_many_requests" && body.transient === true && typeof body.retry_after_seconds === "number", { title: "rate-limit-burst-429: 429 body is not the documented one", received: seen(ex!), expected: { status: "client_error", error_code: "too_many_requests", detail: "…", transient: true, retry_after_seconds: "<number>" } }, ex);
    const header = ex!.headers["retry-after"];
    if (typeof body?.retry_after_seconds === "number") {
      ctx.expect(header !== undefined && Number(header) === Math.ceil(body.retry_after_seconds), { title: "rate-limit-burst-429: Retry-After is not ceil(retry_after_seconds)", received: { "Retry-After": header ?? "(absent)", retry_after_seconds: body.retry_after_seconds }, expected: { "Retry-After": String(Math.ceil(body.retry_after_seconds)) } }, ex);
    }
    const ok = b.burst.filter((e) => e.status === 200).length;
    ctx.expect(ok <= b.limit * 2, { title: "rate-limit-burst-429: more requests succeeded than the advertised limit allows", received: ok, expected: `<= ${b.limit} per second window` }, b.burst.at(-1));
  },
};
export default check;
