// The kit's data agrees with the contract: every decision row is enforced by
// a check (or pending with a reason), the one lenient registry tolerates what
// the rows say and nothing more, the group descriptors and the money table are
// derived from the document, and the generic run model follows each kind's
// states. No server: these read the contract and judge hand-made exchanges.
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { Contract } from "../src/contract.ts";
import { readDecisions } from "../src/decisions.ts";
import { PENDING_DECISIONS } from "../src/decisions-pending.ts";
import { groupOf, groupsOf } from "../src/groups/index.ts";
import { moneyFields } from "../src/groups/money.ts";
import { LENIENT } from "../src/lenient.ts";
import { ModelViolation, RunModel, observe } from "../src/model/model.ts";
import { inspectWith } from "./helpers.ts";
import type { Exchange } from "../src/http.ts";

const contract = Contract.load();

describe("decision coverage", () => {
  const rows = readDecisions();
  const declared = new Set(allChecks.flatMap((c) => c.decisions ?? []));
  it("every strict or lenient row of spec/DECISIONS.md has a check declaring it, or a pending entry with a reason", () => {
    expect(rows.length).toBeGreaterThan(50);
    const missing = rows
      .filter((r) => r.checkable && !declared.has(r.id) && !PENDING_DECISIONS[r.id])
      .map((r) => `${r.id} (${r.kit})`);
    expect(missing).toEqual([]);
  });
  it("no check declares a decision the table does not have, and no pending entry is stale", () => {
    const ids = new Set(rows.map((r) => r.id));
    expect([...declared].filter((d) => !ids.has(d))).toEqual([]);
    expect(
      Object.keys(PENDING_DECISIONS).filter(
        (d) => !ids.has(d) || declared.has(d) || !rows.find((r) => r.id === d)!.checkable,
      ),
    ).toEqual([]);
  });
  it("rows marked not checked are exempt, and every lenient rule of the registry is a lenient row", () => {
    expect(rows.find((r) => r.id === "D-KEY-PREFIX")?.checkable).toBe(false);
    for (const id of Object.keys(LENIENT)) expect(rows.find((r) => r.id === id)?.kit, id).toMatch(/lenient|advisory/);
  });
});

describe("one lenient registry", () => {
  const ex = (over: Partial<Exchange>): Exchange => ({
    seq: 1,
    check: "t",
    method: "GET",
    url: "http://x/v1/prices",
    path: "/v1/prices",
    keyRole: "main",
    requestHeaders: {},
    status: 200,
    headers: {},
    text: "",
    json: undefined,
    meta: {},
    ms: 1,
    ...over,
  });
  const inspect = (id: string, e: Exchange) => inspectWith(contract, id, e);
  it('status "info" on a 2xx is accepted with a warning by every check that looks at it (D-STATUS-STRING)', () => {
    const body = JSON.parse(
      JSON.stringify((contract.op("GET /v1/prices")!.responsesRaw["200"] as any).content["application/json"].examples),
    ) as Record<string, { value: any }>;
    const value = { ...Object.values(body)[0].value, status: "info" };
    const e = ex({ json: value, text: JSON.stringify(value), op: contract.op("GET /v1/prices") });
    for (const id of ["status-string-mapping", "response-schema-conformance", "success-envelope"]) {
      const r = inspect(id, e);
      expect(r.fail, id).toBe(0);
    }
    expect(inspect("status-string-mapping", e).warnings).toContain("D-STATUS-STRING");
    expect(inspect("response-schema-conformance", e).warnings).toContain("D-STATUS-STRING");
    // and a real departure still fails
    const bad = { ...value, status: "ok" };
    expect(
      inspect("status-string-mapping", ex({ json: bad, text: JSON.stringify(bad), op: contract.op("GET /v1/prices") }))
        .fail,
    ).toBe(1);
  });
  it("an unknown run's 404 code is tolerated with a warning on the run read only, the rest of the envelope still validated (D-RUN-404)", () => {
    const op = contract.op("GET /v1/datasets/{dataset_id}/runs/{run_id}")!;
    const body = { status: "client_error", error_code: "not_found", detail: "Run not found.", transient: false };
    const e = ex({
      method: "GET",
      path: "/v1/datasets/ds_x/runs/dsr_x",
      status: 404,
      json: body,
      text: JSON.stringify(body),
      op,
    });
    const r = inspect("response-schema-conformance", e);
    expect(r).toMatchObject({ fail: 0, pass: 1, warnings: ["D-RUN-404"] });
    // a broken envelope behind the tolerated code still fails
    const broken = { ...body, transient: "no" };
    expect(
      inspect(
        "response-schema-conformance",
        ex({
          method: "GET",
          path: "/v1/datasets/ds_x/runs/dsr_x",
          status: 404,
          json: broken,
          text: JSON.stringify(broken),
          op,
        }),
      ).fail,
    ).toBe(1);
    // the same code on the dataset read is not tolerated: D-RUN-404 is the run read's
    const ds = contract.op("GET /v1/datasets/{dataset_id}")!;
    expect(
      inspect(
        "response-schema-conformance",
        ex({ method: "GET", path: "/v1/datasets/ds_x", status: 404, json: body, text: JSON.stringify(body), op: ds }),
      ).fail,
    ).toBe(1);
  });
});

describe("groups as data", () => {
  it("derives operations, codes, states, steps and prefixes from the contract", () => {
    const ds = groupOf(contract, "datasets")!;
    expect(ds.ops.create?.key).toBe("POST /v1/datasets");
    expect(ds.itemParam).toBe("dataset_id");
    expect(ds.idPrefix).toBe("ds_");
    expect(ds.notFound).toEqual(["dataset_not_found"]);
    expect(ds.run?.code402).toBe("insufficient_credits_dataset_run");
    expect(ds.run?.statusEnum).toEqual(["pending", "working", "completed", "failed"]);
    expect(ds.run?.steps).toEqual(["scraping", "enrichment", "analysis"]);
    expect(ds.run?.idPrefix).toBe("dsr_");
    expect(ds.run?.createStatus).toBe(202);
  });
  it("describes every run kind with states the contract allows", () => {
    for (const g of groupsOf(contract).filter((x) => x.run)) {
      const run = g.run!;
      expect(run.statusEnum.length, g.id).toBeGreaterThan(0);
      for (const s of [run.states.pending, ...run.states.working, run.states.completed, run.states.failed])
        expect(run.statusEnum, `${g.id} ${s}`).toContain(s);
      expect(run.code402, g.id).toMatch(/^insufficient_credits/);
      expect(g.price?.units, g.id).toBeGreaterThan(0);
    }
  });
  it("scoping the contract drops the groups it no longer serves", () => {
    const scoped = Contract.load(undefined, ["/v1/datasets"]);
    expect(groupsOf(scoped).map((g) => g.id)).toEqual(["datasets"]);
  });
  it("finds every Dollars field of the contract (the money table)", () => {
    const t = moneyFields(contract);
    expect(t.get("GET /v1/me")).toEqual(expect.arrayContaining(["data.usage.balance"]));
    expect(t.get("GET /v1/me/usage_history")).toEqual(["data[].quantity"]);
    expect(t.get("GET /v1/prices")).toEqual(expect.arrayContaining(["data.prices.mention", "data.rate"]));
  });
});

describe("generic run model", () => {
  const cp = groupOf(contract, "custom-parameters")!.run!;
  const kind = {
    check: "cp-state-machine",
    states: cp.states,
    statusAt: cp.statusAt,
    counts: ["mentions_done", "mentions_error"],
  };
  const ex = { status: 200 } as Exchange;
  it("accepts the custom parameter run's processing → completed and refuses a terminal run moving back", () => {
    const m = new RunModel(kind, 1);
    observe(m, "cpr_1", { status: { type: "processing" }, mentions_done: 1 }, ex);
    observe(m, "cpr_1", { status: { type: "completed" }, mentions_done: 3 }, ex);
    expect(() => observe(m, "cpr_1", { status: { type: "processing" }, mentions_done: 3 }, ex)).toThrow(ModelViolation);
  });
  it("refuses counters that shrink and states outside the kind", () => {
    const m = new RunModel(kind, 1);
    observe(m, "cpr_2", { status: { type: "processing" }, mentions_done: 5 }, ex);
    expect(() => observe(m, "cpr_2", { status: { type: "processing" }, mentions_done: 4 }, ex)).toThrow(/decreased/);
    expect(() => observe(new RunModel(kind, 1), "cpr_3", { status: { type: "working" } }, ex)).toThrow(
      /unknown status/,
    );
  });
});
