import type { DatasetsDatasetRunCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, status, value, words } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import { successfulRun } from "./support/billing.ts";
import { countOf, describeAllowed, windowAllReserved } from "./support/groups.ts";
import { seen } from "./support/util.ts";

/** The fields the seed says a run create response carries. */
const CREATE_FIELDS = ["id", "dataset_id", "count", "requested_count", "status", "created_at"] as const;

/**
 * Starting a dataset run answers 202 with the run pending and takes its
 * reservation at once. The seed states that a reservation is taken at the
 * create and that it is the upper bound (so it covers what the run is
 * finally charged); its amount, the run's own `count` × the mention price,
 * is D-RUN-RESERVATION, judged on its own. The balance right after the
 * create is judged against the run's state read around it: a run that had
 * already ended by then is judged by its settlement or release, and the
 * reservation is reported not exercised, never assumed.
 */
export default defineCheck({
  id: "billing-reservation-at-create",
  phase: "billing",
  rule: "Starting a dataset run answers 202 with the create response (id, dataset_id, count, requested_count, status pending, created_at) and reserves at once an amount that covers the run's final charge (count × mention price, D-RUN-RESERVATION); a run already ended when the balance is read shows its settlement or release",
  section:
    "States › Dataset run ((none) → pending: 202, reservation taken); Resources › Dataset run (create response); Limits › Charges (1)",
  severity: "critical",
  asserts: {
    accepted: seed("dataset-run.create-pending-202", status(202)),
    pending: seed("dataset-run.create-pending-202", value("pending")),
    fields: seed("dataset-run.create-response", ...CREATE_FIELDS.map((f) => field(f))),
    reserved: seed(
      ["dataset-run.create-pending-202", "charges.reservation-before-work", "service.charges.reserved-up-front"],
      words("reservation taken"),
      words("the upper bound is reserved before work starts"),
      words("reserved up front"),
    ),
    amount: decided("D-RUN-RESERVATION", field("count")),
    ended: seed(
      [
        "dataset-run.working-to-completed",
        "dataset-run.to-failed",
        "charges.refund-to-actuals",
        "charges.failed-releases",
      ],
      words("charge is for collected mentions only"),
      words("full reservation refunded"),
    ),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const r = await successfulRun(ctx);
    ctx.expect(
      r.create.status === 202,
      {
        judges: "accepted",
        title: `starting a dataset run answered ${r.create.status}`,
        received: r.create.status,
        expected: 202,
      },
      r.create,
    );
    const run = dataOf<DatasetsDatasetRunCreated>(r.create);
    const missing = CREATE_FIELDS.filter((f) => !isObject(run) || !(f in run));
    ctx.expect(
      missing.length === 0,
      {
        judges: "fields",
        title: `the run create response lacks ${missing.join(", ")}`,
        received: seen(r.create),
        expected: Object.fromEntries(CREATE_FIELDS.map((f) => [f, "…"])),
      },
      r.create,
    );
    ctx.expect(
      run?.status?.type === "pending",
      {
        judges: "pending",
        title: `a new run is ${JSON.stringify(run?.status?.type)}, not pending`,
        received: run?.status,
        expected: { type: "pending" },
      },
      r.create,
    );

    const w = r.afterCreate;
    if (w.unreadable)
      return ctx.notExercised(
        `the run as read around the balance (${w.unreadable.status}) gave no state its money follows from: the balance right after the start was not judged`,
      );
    const debit = r.before.minus(w.balance);
    // what the run was finally charged, when its end says (the reservation must cover it: the upper bound)
    const finalType = r.final?.status?.type;
    const collected = countOf(r.final?.mentions_count);
    const charged =
      finalType === "failed"
        ? r.price.mul(0)
        : finalType === "completed" && collected !== undefined
          ? r.price.mul(collected)
          : undefined;
    const covers = debit.gt(0) && (charged === undefined || debit.gte(charged));
    if (windowAllReserved(w)) {
      ctx.expect(
        covers,
        {
          judges: "reserved",
          title:
            debit.gt(0) && charged
              ? `the run held $${debit.toFixed()} while in flight but was charged $${charged.toFixed()}`
              : `the balance right after starting the run fell by $${debit.toFixed()}: no reservation was taken`,
          received: {
            balance_before: r.before.toFixed(),
            balance_in_flight: w.balance.toFixed(),
            debit: debit.toFixed(),
          },
          expected: `a debit above 0${charged ? ` and at least the final charge $${charged.toFixed()}` : ""}`,
        },
        w.me,
      );
      if (r.count === undefined)
        ctx.notExercised("the create response gave no integer count: the amount of the reservation was not judged");
      else {
        const reservation = r.price.mul(r.count);
        ctx.expect(
          debit.equals(reservation),
          {
            judges: "amount",
            title: `the run held $${debit.toFixed()} while in flight, not count ${r.count} × $${r.price.toFixed()}`,
            received: debit.toFixed(),
            expected: `${r.before.toFixed()} − ${r.count} × ${r.price.toFixed()} = ${r.before.minus(reservation).toFixed()} (a debit of ${reservation.toFixed()})`,
          },
          w.me,
        );
      }
      return;
    }
    // the run had ended (or ended between the reads) when the balance was read
    const ended = w.allowed.every((a) => a.money.every((m) => m !== "reserved"));
    ctx.notExercised(
      `the run had ${ended ? "already ended" : "ended between two reads"} when the balance was read right after the start: the reservation itself was not observable, and the balance was judged against the state read`,
    );
    // every state read allows its own debit (a reservation sized by the run's count while it was in flight)
    const states = [...new Set(w.allowed.flatMap((a) => a.states))].join(" → ");
    ctx.expect(
      w.allowed.some((a) => debit.equals(a.debit)) || (!ended && r.count === undefined && covers),
      {
        // ended between the reads: the balance may hold the reservation, whose amount is the decision's
        judges: ended ? "ended" : "amount",
        title: `the balance right after the start is $${debit.toFixed()} less, not what the run's observed state (${states}) leaves`,
        received: { balance: w.balance.toFixed(), debit: debit.toFixed(), states },
        expected: `a debit of ${describeAllowed(w)}`,
      },
      w.me,
    );
  },
});
