import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";

/** base64url: letters, digits, `-` and `_`, with optional `=` padding (seed › Conventions › Pagination). */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Every cursor a list answers is a base64url string (padding optional). */
export default defineCheck({
  id: "pagination-cursor-base64url",
  rule: "The cursor of every list answer (a page with has_next) is null or a base64url string: letters, digits, '-' and '_', with '=' padding optional",
  section: "Resources › Conventions (Pagination)",
  severity: "minor",
  asserts: { base64url: seed("pagination.cursor-base64url", words("opaque base64url string")) },
  mock: true,
  inspect(ex, ctx) {
    if (ex.status !== 200) return;
    const body = bodyOf<{ has_next: boolean; cursor: unknown }>(ex);
    if (!isObject(body) || !("has_next" in body) || typeof body.cursor !== "string") return;
    if (!BASE64URL.test(body.cursor))
      return ctx.fail(ex, {
        judges: "base64url",
        title: `a list answered the cursor ${JSON.stringify(body.cursor.slice(0, 60))}, not a base64url string`,
        received: body.cursor,
        expected: "a base64url string (A-Z a-z 0-9 - _, optional = padding)",
      });
    ctx.pass(ex);
  },
});
