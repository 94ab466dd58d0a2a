// Single-rule faults added while the checks of this area were converted to
// declared assertions. Each names the ledger rows it breaks (`rows`) or the
// decision it re-decides (`decision`); the mutation harness runs each behind
// the proxy and expects its check to fail, attributed to one of its rows.
// The area is money and the runs it is charged for: dataset run billing and
// the refused (402) run, usage history, /v1/me usage, prices and plans,
// previews, pattern detections and patterns, the dataset run machine. The
// faults that break a reservation rule break it where a deployment whose
// runs end at once still shows it (an unfundable run accepted), beside the
// in-flight faults of faults.ts and faults-groups.ts.
import { json, type Body, type Fault, type ProxyRequest, type ProxyResponse, type ProxyState } from "./proxy.ts";

const P = (q: ProxyRequest) => q.url.pathname;
const is = (q: ProxyRequest, method: string, re: RegExp) => q.method === method && re.test(P(q));
const ok = (r: ProxyResponse) => r.status >= 200 && r.status < 300;
const withData = (res: ProxyResponse, f: (d: Body) => unknown): ProxyResponse =>
  json(res, { ...res.json, data: f(structuredClone(res.json.data)) });
const withDetail = (res: ProxyResponse, f: (d: Body) => unknown): ProxyResponse =>
  json(res, { ...res.json, detail: f(structuredClone(res.json.detail)) });
/** GET /v1/me answered to `key` with its balance moved by `delta` dollars. */
const balanceMoved = (q: ProxyRequest, res: ProxyResponse, key: string | undefined, delta: number): ProxyResponse =>
  is(q, "GET", /^\/v1\/me$/) &&
  q.key === key &&
  res.status === 200 &&
  typeof res.json?.data?.usage?.balance === "number"
    ? withData(res, (d) => ({
        ...d,
        usage: { ...d.usage, balance: Math.round((d.usage.balance + delta) * 1e6) / 1e6 },
      }))
    : res;

const RUNS = /^\/v1\/datasets\/([^/]+)\/runs$/;
const RUN = /^\/v1\/datasets\/[^/]+\/runs\/([^/]+)$/;
const PREVIEWS = /^\/v1\/research_previews$/;
const DETECTIONS = /^\/v1\/pattern_detections$/;
const PDR = /^\/v1\/pattern_detections\/[^/]+$/;
const PATTERN = /^\/v1\/patterns\/[^/]+$/;
const ITEM = /^\/v1\/patterns\/[^/]+\/items\/[^/]+$/;
const terminal = (d: Body) => ["completed", "failed"].includes(d?.status?.type);
/** A 402 of the poor account's dataset run. */
const poor402 = (q: ProxyRequest, res: ProxyResponse, s: ProxyState) =>
  is(q, "POST", RUNS) && q.key === s.keys.poor && res.status === 402;

export const kitMoneyFaults: Fault[] = [
  // ---- the refused (402) dataset run --------------------------------------------------------------------
  {
    id: "unfundable-run-accepted",
    rows: [
      "datasets.runs.create.402",
      "errors.402",
      "charges.reservation-before-work",
      "service.charges.reserved-up-front",
    ],
    breaks:
      "A run whose reservation the balance cannot fund is refused with 402 (an unfundable run is accepted instead)",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) => {
      if (!poor402(q, res, s)) return res;
      const asked = JSON.parse(q.body ?? "{}")?.count ?? 200;
      return json(
        res,
        {
          status: "success",
          data: {
            id: "dsr_slkfaultaccepted",
            dataset_id: RUNS.exec(P(q))![1],
            count: asked,
            requested_count: asked,
            status: { type: "pending" },
            created_at: new Date().toISOString(),
          },
        },
        202,
      );
    },
  },
  {
    id: "402-required-below-available",
    rows: ["errors.402", "errors.402-body"],
    breaks: "A 402's required exceeds its available (the balance cannot fund the reservation)",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) => (poor402(q, res, s) ? withDetail(res, (d) => ({ ...d, required: "0.000001" })) : res),
  },
  {
    id: "402-transient-true",
    rows: ["errors.402-body"],
    breaks: "A 402 body says transient false",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) => (poor402(q, res, s) ? json(res, { ...res.json, transient: true }) : res),
  },
  {
    id: "402-amounts-as-numbers",
    rows: ["errors.402-body"],
    breaks: "A 402's required and available are US-dollar decimal strings (sent as JSON numbers)",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) =>
      poor402(q, res, s)
        ? withDetail(res, (d) => ({ ...d, required: Number(d.required), available: Number(d.available) }))
        : res,
  },
  {
    id: "refused-run-charged",
    rows: ["errors.never-partially-charged"],
    breaks: "A refused run charges nothing (the poor balance falls by half a cent after the 402)",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) => {
      if (poor402(q, res, s)) s.memo.set("poor-charged", true);
      return s.memo.get("poor-charged") ? balanceMoved(q, res, s.keys.poor, -0.005) : res;
    },
  },
  {
    id: "refused-run-created",
    rows: ["dataset-run.create-pending-202"],
    breaks: "A refused run request creates no run (the list shows one after the 402)",
    expect: "billing-402-refused-charges-nothing",
    response: (q, res, s) => {
      if (poor402(q, res, s)) s.memo.set("poor-created", RUNS.exec(P(q))![1]);
      const ds = s.memo.get("poor-created");
      if (!ds || !is(q, "GET", RUNS) || RUNS.exec(P(q))![1] !== ds || !Array.isArray(res.json?.data)) return res;
      return withData(res, (d) => [
        {
          id: "dsr_slkfaultcreated",
          dataset_id: ds,
          status: { type: "pending" },
          created_at: new Date().toISOString(),
        },
        ...d,
      ]);
    },
  },

  // ---- a started dataset run ----------------------------------------------------------------------------
  {
    id: "run-created-200",
    rows: ["dataset-run.create-pending-202"],
    breaks: "Starting a dataset run answers 202 (200 instead)",
    expect: "billing-reservation-at-create",
    response: (q, res) => (is(q, "POST", RUNS) && res.status === 202 ? { ...res, status: 200 } : res),
  },
  {
    id: "run-created-working",
    rows: ["dataset-run.create-pending-202"],
    breaks: "A new dataset run is pending (the create answer says working)",
    expect: "billing-reservation-at-create",
    response: (q, res) =>
      is(q, "POST", RUNS) && res.status === 202
        ? withData(res, (d) => ({ ...d, status: { ...d.status, type: "working" } }))
        : res,
  },
  {
    id: "run-create-no-requested-count",
    rows: ["dataset-run.create-response"],
    breaks: "The run create response carries requested_count",
    expect: "billing-reservation-at-create",
    response: (q, res) =>
      is(q, "POST", RUNS) && res.status === 202 ? withData(res, ({ requested_count: _r, ...d }) => d) : res,
  },
  {
    id: "failed-run-without-message",
    rows: ["dataset-run.failed-error-message"],
    breaks: "A failed run's status carries error_message",
    expect: "billing-refund-on-failure",
    response: (q, res) =>
      is(q, "GET", RUN) && res.json?.data?.status?.type === "failed"
        ? withData(res, (d) => ({ ...d, status: { type: "failed", steps: d.status.steps } }))
        : res,
  },
  {
    id: "run-back-to-pending",
    rows: ["dataset-run.pending-to-working", "dataset-run.states"],
    breaks: "A run moves pending → working, never back (an ended run reads working, then pending, then ended again)",
    expect: "run-state-machine",
    response: (q, res, s) => {
      if (!is(q, "GET", RUN) || !terminal(res.json?.data)) return res;
      const key = `back-${P(q)}`;
      const step = (s.memo.get(key) as number | undefined) ?? 0;
      s.memo.set(key, step + 1);
      if (step > 1) return res;
      // only the state moves back: steps and counts stay as the run reports them, so the move is the one finding
      return withData(res, (d) => ({ ...d, status: { ...d.status, type: step === 0 ? "working" : "pending" } }));
    },
  },
  {
    id: "run-status-done",
    rows: ["dataset-run.status-types"],
    breaks: "A run's status type is one of pending, working, completed, failed (a completed run reads done)",
    expect: "run-state-machine",
    response: (q, res) =>
      is(q, "GET", RUN) && res.json?.data?.status?.type === "completed"
        ? withData(res, (d) => ({ ...d, status: { ...d.status, type: "done" } }))
        : res,
  },
  {
    id: "ended-run-read-404",
    rows: ["datasets.runs.read.404"],
    breaks: "A started run reads back 200 (404 once it has ended)",
    expect: "run-state-machine",
    response: (q, res, s) => {
      if (!is(q, "GET", RUN)) return res;
      if (s.memo.get(`ended-${P(q)}`))
        return json(
          res,
          { status: "client_error", error_code: "dataset_not_found", detail: "Injected.", transient: false },
          404,
        );
      if (terminal(res.json?.data)) s.memo.set(`ended-${P(q)}`, true);
      return res;
    },
  },
  {
    id: "run-list-drops-runs",
    rows: ["datasets.runs.list.404"],
    breaks: "A dataset's run list lists its runs (it answers an empty page)",
    expect: "run-state-machine",
    response: (q, res) =>
      is(q, "GET", RUNS) && res.status === 200 && Array.isArray(res.json?.data)
        ? json(res, { ...res.json, data: [], has_next: false, cursor: null })
        : res,
  },

  // ---- usage history, /v1/me, prices and plans -------------------------------------------------------------
  {
    id: "usage-quantity-negative",
    rows: ["usage-history.quantity-non-negative"],
    breaks: "Usage history quantities are non-negative (a refund row is negative)",
    expect: "billing-usage-history-matches",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/me\/usage_history$/) && Array.isArray(res.json?.data) && res.json.data.length > 0
        ? withData(res, (rows) => [
            { ...rows[0], id: 999_999_999, quantity: -Math.abs(rows[0].quantity || 0.01) },
            ...rows,
          ])
        : res,
  },
  {
    id: "me-usage-total-missing",
    rows: ["me.usage"],
    breaks: "GET /v1/me's usage carries balance_total",
    expect: "me-usage-adds-up",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/me$/) && res.status === 200 && res.json?.data?.usage
        ? withData(res, ({ usage: { balance_total: _t, ...u }, ...d }) => ({ ...d, usage: u }))
        : res,
  },
  {
    id: "prices-post-processing-missing",
    rows: ["prices.fields", "prices.read"],
    breaks: "GET /v1/prices carries prices.post_processing",
    expect: "prices-match-unit-ratios",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/prices$/) && res.status === 200 && res.json?.data?.prices
        ? withData(res, ({ prices: { post_processing: _p, ...p }, ...d }) => ({ ...d, prices: p }))
        : res,
  },
  {
    id: "prices-audience-ratio-2",
    rows: ["charges.unit-ratios", "charges.audience-profile"],
    breaks: "An audience profile costs 3 units × rate (2 instead)",
    expect: "prices-match-unit-ratios",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/prices$/) && res.status === 200 && typeof res.json?.data?.rate === "number"
        ? withData(res, (d) => ({
            ...d,
            prices: { ...d.prices, audience_profile: Math.round(d.rate * 2 * 1e6) / 1e6 },
          }))
        : res,
  },
  {
    id: "plan-seats-off-table",
    rows: ["charges.plans"],
    breaks: "A plan of the table has its total seats (one seat more)",
    expect: "plan-table-rates",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/me$/) && res.status === 200 && typeof res.json?.data?.plan?.limits?.num_seats === "number"
        ? withData(res, (d) => ({
            ...d,
            plan: { ...d.plan, limits: { ...d.plan.limits, num_seats: d.plan.limits.num_seats + 1 } },
          }))
        : res,
  },

  // ---- previews ---------------------------------------------------------------------------------------------
  {
    id: "preview-url-result-drops-private",
    rows: ["preview.url-result"],
    breaks: "A URL preview result carries private_profiles",
    expect: "preview-url-charge-per-returning-url",
    response: (q, res) =>
      is(q, "POST", PREVIEWS) && ok(res) && res.json?.data?.type === "url"
        ? withData(res, ({ private_profiles: _p, ...d }) => d)
        : res,
  },
  {
    id: "refused-preview-charged",
    rows: ["previews.create.402"],
    breaks: "A refused preview charges nothing (the poor balance falls by half a cent after the 402)",
    expect: "preview-402-before-work",
    response: (q, res, s) => {
      if (is(q, "POST", PREVIEWS) && q.key === s.keys.poor && res.status === 402) s.memo.set("preview-charged", true);
      return s.memo.get("preview-charged") ? balanceMoved(q, res, s.keys.poor, -0.005) : res;
    },
  },

  // ---- pattern detections and patterns ----------------------------------------------------------------------
  {
    id: "failed-detection-keeps-charge",
    rows: ["pattern-detection-run.failure-refund"],
    breaks: "A failed detection refunds its reservation in full (it keeps a cent)",
    expect: "pattern-detection-billing-latest-run",
    request: (q) => (is(q, "POST", DETECTIONS) ? { ...q, headers: { ...q.headers, prefer: "fault=run-failed" } } : q),
    response: (q, res, s) => {
      if (is(q, "GET", PDR) && res.json?.data?.status?.type === "failed") s.memo.set("pd-failed", true);
      return s.memo.get("pd-failed") ? balanceMoved(q, res, s.keys.main, -0.01) : res;
    },
  },
  {
    id: "refused-detection-charged",
    rows: ["errors.never-partially-charged"],
    breaks: "A refused detection charges nothing (the balance falls by a cent after the 404)",
    expect: "pattern-detection-codes",
    response: (q, res, s) => {
      if (is(q, "POST", DETECTIONS) && res.status === 404) s.memo.set("pd-refused", true);
      return s.memo.get("pd-refused") ? balanceMoved(q, res, s.keys.main, -0.01) : res;
    },
  },
  {
    id: "detection-created-working",
    rows: ["pattern-detections.create"],
    breaks: "A new pattern detection is pending (the create answer says working)",
    expect: "pattern-detection-run-state-machine",
    response: (q, res) =>
      is(q, "POST", DETECTIONS) && ok(res)
        ? withData(res, (d) => ({ ...d, status: { ...d.status, type: "working" } }))
        : res,
  },
  {
    id: "ended-detection-read-404",
    rows: ["pattern-detections.read.404"],
    breaks: "A started detection reads back (404 once it has ended, after its first ended read)",
    expect: "pattern-detection-run-state-machine",
    response: (q, res, s) => {
      if (!is(q, "GET", PDR)) return res;
      if (s.memo.get(`pd-ended-${P(q)}`))
        return json(
          res,
          {
            status: "client_error",
            error_code: "pattern_detection_run_not_found",
            detail: "Injected.",
            transient: false,
          },
          404,
        );
      if (terminal(res.json?.data)) s.memo.set(`pd-ended-${P(q)}`, true);
      return res;
    },
  },
  {
    id: "pattern-without-items",
    rows: ["patterns.read", "pattern.items"],
    breaks: "A pattern summary carries items[]",
    expect: "pattern-item-post-count",
    response: (q, res) => (is(q, "GET", PATTERN) && ok(res) ? withData(res, ({ items: _i, ...d }) => d) : res),
  },
  {
    id: "pattern-item-read-404",
    rows: ["patterns.item"],
    breaks: "An item of a pattern reads back with its posts (404 instead)",
    expect: "pattern-item-post-count",
    response: (q, res) =>
      is(q, "GET", ITEM) && ok(res)
        ? json(
            res,
            { status: "client_error", error_code: "pattern_not_found", detail: "Injected.", transient: false },
            404,
          )
        : res,
  },
  {
    id: "post-refs-do-not-resolve",
    rows: ["references.post-resolves"],
    breaks: "A post reference resolves through POST /v1/mentions with post_refs",
    expect: "pattern-item-post-count",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/mentions$/) && ok(res) && /"post_refs"/.test(q.body ?? "")
        ? json(res, { ...res.json, data: [], has_next: false, cursor: null })
        : res,
  },
];
