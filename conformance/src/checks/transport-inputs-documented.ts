import type { Exchange } from "../http.ts";
import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { DATASETS, MISSING_DATASET_ID, seen } from "./support/util.ts";

// Inputs a stranger sends without meaning harm, each answered by a body
// guard or by validation rather than by the operation's own logic: every
// deployment answers them somehow, and what it answers must be a status the
// operation documents (documented-status-only judges these exchanges too, so
// an undocumented 413, 415 or 414 cannot go unseen). The kit's transport is
// fetch, which cannot put a body on a GET, so the body inputs ride on a
// DELETE (D-GET-BODY covers both methods) of a dataset that does not exist.
// A request head over 16 KiB is not sent: a Node or nginx front answers it
// with a bare 431 that the envelope and schema checks would fail, while
// D-TRANSPORT-ERRORS accepts an empty body there with a warning.
const BIG_BODY = 1_100_000; // over the 1 MiB of D-BODY-LIMIT
const LONG_CURSOR = 3000; // over the 2048 of D-BOUND-STRINGS

/** A request a conformant deployment refuses or ignores, answered with a status its operation documents. */
export default defineCheck({
  id: "transport-inputs-documented",
  phase: "requests",
  rule: "A body that is not JSON or over 1 MiB on a request that reads none, and a cursor over 2048 characters, are each answered with a status the operation documents, never a 5xx (a cursor is refused with a 4xx)",
  section: "Errors; Limits (no body or cursor size is stated)",
  severity: "major",
  // the seed names none of these limits: each answer is the contract's decision (a 5xx is no-server-errors' seed finding too)
  asserts: {
    body: decided("D-GET-BODY"),
    cursor: decided("D-BOUND-STRINGS"),
  },
  invalidRequests: true,
  requires: ["DELETE /v1/datasets/{dataset_id}", "GET /v1/datasets"],
  async run(ctx) {
    const documented = (ex: Exchange) => !!ex.op?.responses.has(String(ex.status));
    const judge = (ex: Exchange, title: string, refused = false) =>
      ctx.expect(
        documented(ex) && ex.status < 500 && (!refused || ex.status >= 400),
        {
          judges: refused ? "cursor" : "body",
          title: `${title} answered ${ex.status}`,
          received: seen(ex),
          expected: `a ${refused ? "4xx" : "status below 500"} the operation documents: ${[...(ex.op?.responses.keys() ?? [])].join(" | ")}`,
        },
        ex,
      );

    const missing = `${DATASETS}/${MISSING_DATASET_ID}`;
    const text = await ctx.req({
      method: "DELETE",
      path: missing,
      rawBody: "please delete",
      headers: { "content-type": "text/plain" },
      meta: { negative: "a text/plain body on a DELETE" },
    });
    judge(text, "a text/plain body on DELETE");
    const big = await ctx.req({
      method: "DELETE",
      path: missing,
      rawBody: JSON.stringify({ note: " ".repeat(BIG_BODY) }),
      meta: { negative: `a ${BIG_BODY}-byte JSON body on a DELETE` },
    });
    judge(big, `a ${BIG_BODY}-byte body on DELETE`);

    const cursor = await ctx.req({
      method: "GET",
      path: `${DATASETS}?cursor=${"A".repeat(LONG_CURSOR)}`,
      meta: { negative: `a ${LONG_CURSOR}-character cursor` },
    });
    judge(cursor, `a cursor of ${LONG_CURSOR} characters`, true);
  },
});
