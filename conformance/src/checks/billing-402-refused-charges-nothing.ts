import type { DatasetsDatasetRunCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status, value, words } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import { listOf, seen } from "./support/util.ts";
import { countOf, errorCode, newUsageRows } from "./support/groups.ts";
import { expect402Body, refusedRun, RUN_COUNT, PAYMENT_REQUIRED_ASSERTS } from "./support/billing.ts";

/**
 * A run the poor account's balance cannot fund is refused: 402
 * insufficient_credits_dataset_run with the seed's 402 body (required more
 * than available), no run created, nothing charged. The seed states no
 * amount for `required` and `available`: that they are the reservation the
 * run would take and the balance GET /v1/me shows is D-402-AMOUNTS, judged
 * on its own. A deployment that accepts the run instead is judged by the
 * run it reports: refused only when its own `count` × price exceeds the
 * balance (its reservation could not be funded).
 */
export default defineCheck({
  id: "billing-402-refused-charges-nothing",
  phase: "billing",
  rule: "A dataset run whose reservation the --poor-key balance cannot fund gets 402 insufficient_credits_dataset_run with detail {message, required, available, top_up_url} (required and available decimal strings, required > available), transient false; no run is created and nothing is charged; required = count × price and available = balance (D-402-AMOUNTS)",
  section:
    "Errors (402; 402 body); Endpoints › Datasets (POST runs 402); Limits › Charges (reservation; never partially charged)",
  severity: "critical",
  asserts: {
    refused: seed(
      [
        "datasets.runs.create.402",
        "errors.402",
        "charges.reservation-before-work",
        "service.charges.reserved-up-front",
      ],
      status(402),
      code("insufficient_credits_dataset_run"),
      words("balance cannot fund the reservation"),
      words("the upper bound is reserved before work starts"),
      words("reserved up front"),
    ),
    ...PAYMENT_REQUIRED_ASSERTS,
    nothingCreated: seed("dataset-run.create-pending-202", words("request accepted"), value("pending")),
    nothingCharged: seed("errors.never-partially-charged", words("Requests are never partially charged.")),
    amounts: decided("D-402-AMOUNTS", field("required"), field("available")),
    detailTypes: decided("D-ERROR-DETAIL", field("message"), field("top_up_url")),
  },
  keys: ["poor"],
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const r = await refusedRun(ctx);
    const ex = r.create;
    const answered = errorCode(ex);
    if (ex.status >= 200 && ex.status < 300) {
      // accepted: judged by the run as the deployment sized it (its own count), never by the count asked
      const created = dataOf<DatasetsDatasetRunCreated>(ex);
      const count = countOf(created?.count) ?? countOf(created?.requested_count);
      if (count === undefined)
        return ctx.notExercised(
          `the poor account's run was accepted (${ex.status}) without a count: whether the balance could fund it is unknown`,
        );
      const reservation = r.price.mul(count);
      if (reservation.lte(r.before))
        return ctx.notExercised(
          `the deployment sized the poor account's run at ${count} mentions ($${reservation.toFixed()}), which its balance ($${r.before.toFixed()}) funds`,
        );
      ctx.fail(
        {
          judges: "refused",
          title: `a run reserving ${count} × $${r.price.toFixed()} = $${reservation.toFixed()} was accepted on a balance of $${r.before.toFixed()}`,
          received: seen(ex),
          expected: { status: 402, error_code: "insufficient_credits_dataset_run" },
        },
        ex,
      );
      return;
    }
    if (ex.status !== 402 && r.asked !== RUN_COUNT)
      // the largest count refused for a reason of the deployment's own (a cap, say), and the minimum fundable
      return ctx.notExercised(
        `the poor account's run of ${r.asked} mentions was refused with ${ex.status} ${answered ?? ""} and its balance funds the seed's minimum run: no unfundable run to judge`,
      );
    const refused = ctx.expect(
      ex.status === 402 && answered === "insufficient_credits_dataset_run",
      {
        judges: "refused",
        title: `an unfundable run of ${r.asked} mentions answered ${ex.status} ${answered ?? ""}`.trimEnd(),
        received: seen(ex),
        expected: { status: 402, error_code: "insufficient_credits_dataset_run" },
        message: r.refusedOtherwise.length
          ? `asked first for ${r.refusedOtherwise.map((o) => `${o.asked} mentions (${o.ex.status})`).join(", ")}`
          : undefined,
      },
      ex,
    );
    if (refused) {
      const d = expect402Body(ctx, ex);
      if (d.detail) {
        ctx.expect(
          typeof d.detail.message === "string" && typeof d.detail.top_up_url === "string",
          {
            judges: "detailTypes",
            title: "the 402 message or top_up_url is not a string",
            received: { message: d.detail.message, top_up_url: d.detail.top_up_url },
            expected: { message: "<text>", top_up_url: "<url>" },
          },
          ex,
        );
        // D-402-AMOUNTS: the reservation the run would take (count as D-RUN-COUNT reserves it), the balance shown
        const required = r.price.mul(r.asked);
        if (d.required && d.available)
          ctx.expect(
            d.required.equals(required) && d.available.equals(r.before),
            {
              judges: "amounts",
              title: `the 402 states required $${d.required.toFixed()} and available $${d.available.toFixed()}`,
              received: { required: d.detail.required, available: d.detail.available },
              expected: { required: required.toFixed(6), available: r.before.toFixed(6) },
            },
            ex,
          );
      }
    }
    // nothing created: the dataset's run list, read before and after, gained no run
    const before = listOf(r.runsBefore);
    const after = listOf(r.runsAfter);
    if (r.runsBefore.status !== 200 || r.runsAfter.status !== 200 || !before || !after)
      ctx.notExercised(
        `the poor account's run list could not be read (${r.runsBefore.status}, ${r.runsAfter.status}): whether a run was created is unknown`,
      );
    else {
      const known = new Set(before.map((x) => (isObject(x) ? x.id : undefined)));
      const added = after.filter((x) => !known.has(isObject(x) ? x.id : undefined));
      ctx.expect(
        added.length === 0,
        {
          judges: "nothingCreated",
          title: `a refused run request created ${added.length} run(s)`,
          received: added,
          expected: "no new run",
        },
        r.runsAfter,
      );
    }
    ctx.expect(
      r.after.equals(r.before),
      {
        judges: "nothingCharged",
        title: "a refused run request changed the balance",
        received: r.after.toFixed(),
        expected: r.before.toFixed(),
      },
      r.meAfter,
    );
    const rows = newUsageRows(r.rowsBefore, r.rowsAfter);
    ctx.expect(rows.length === 0, {
      judges: "nothingCharged",
      title: `a refused run request wrote ${rows.length} usage row(s)`,
      received: rows,
      expected: "no new usage row",
    });
  },
});
