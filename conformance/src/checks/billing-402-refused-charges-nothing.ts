import type { DatasetsInsufficientCreditsDatasetRunError } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";
import { listOf, seen } from "./support/util.ts";
import { refusedRun } from "./support/billing.ts";

/** An unfundable run: 402 with the documented body; nothing created, nothing charged. */
export default defineCheck({
  id: "billing-402-refused-charges-nothing",
  phase: "billing",
  rule: "A run the balance cannot fund gets 402 insufficient_credits_dataset_run with detail {message, required = count × price, available = balance, top_up_url}, transient false; no run is created and nothing is charged",
  section: "Errors (402 body); Endpoints › Datasets (POST runs 402); Limits › Charges",
  severity: "critical",
  rules: {
    seed: "402 body: `detail` is an object `{message, required, available, top_up_url}`; `required` and `available` are US-dollar decimal strings; `transient` false. Requests are never partially charged.",
  },
  decisions: ["D-MONEY-STRING"],
  keys: ["poor"],
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const r = await refusedRun(ctx);
    const b = bodyOf<DatasetsInsufficientCreditsDatasetRunError>(r.create);
    const d = b?.detail;
    const required = r.price.mul(r.count);
    const ok402 =
      r.create.status === 402 &&
      b?.error_code === "insufficient_credits_dataset_run" &&
      b.status === "client_error" &&
      b.transient === false &&
      isObject(d);
    if (
      !ctx.expect(
        ok402,
        {
          title: `an unfundable run answered ${r.create.status}`,
          received: seen(r.create),
          expected: {
            status: 402,
            body: {
              status: "client_error",
              error_code: "insufficient_credits_dataset_run",
              detail: { message: "…", required: required.toFixed(6), available: r.before.toFixed(6), top_up_url: "…" },
              transient: false,
            },
          },
        },
        r.create,
      ) ||
      !d
    )
      return;
    const same = (s: unknown, v: { equals(x: string): boolean }) =>
      typeof s === "string" && /^\d+(\.\d+)?$/.test(s) && v.equals(s);
    ctx.expect(
      same(d.required, required) &&
        same(d.available, r.before) &&
        typeof d.top_up_url === "string" &&
        typeof d.message === "string",
      {
        title: "402 detail does not state required/available as decimal strings",
        received: d,
        expected: {
          required: required.toFixed(6),
          available: r.before.toFixed(6),
          message: "<text>",
          top_up_url: "<url>",
        },
      },
      r.create,
    );
    const before = listOf(r.runsBefore)?.length ?? 0;
    const after = listOf(r.runsAfter)?.length ?? 0;
    ctx.expect(
      before === after,
      {
        title: "a refused request created a run",
        received: `${after} runs`,
        expected: `${before} runs`,
      },
      r.runsAfter,
    );
    ctx.expect(r.after.equals(r.before), {
      title: "a refused request changed the balance",
      received: r.after.toFixed(),
      expected: r.before.toFixed(),
    });
    ctx.expect(r.rowsAfter.length === r.rowsBefore.length, {
      title: "a refused request wrote usage history",
      received: r.rowsAfter.length,
      expected: r.rowsBefore.length,
    });
  },
});
