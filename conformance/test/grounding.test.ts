// The grounding gate: every assertion a check declares is either a seed rule
// whose facts each stand in the sentence it quotes (the ledger row's quote or
// one of its other places), or a decision that is a row of spec/DECISIONS.md.
// A seed assertion that declares no fact, names a row that does not exist or
// is not a rule to judge, or relies on a fact its sentence does not state
// fails here, naming the check, the assertion and the fact.
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { BUILTIN_ASSERTS, attribute, decisionTable } from "../src/attribution.ts";
import { LEDGER } from "../src/seed-ledger/rules.ts";
import { isRule } from "../src/seed-ledger/types.ts";
import { describeFact, factIn, type Fact } from "../src/grounding/facts.ts";
import type { Assertion } from "../src/grounding/assertions.ts";

const rows = new Map(LEDGER.map((r) => [r.id, r]));

/** What is wrong with one declared assertion, one line per problem. */
function problemsOf(where: string, a: Assertion): string[] {
  if (a.kind === "decision")
    return decisionTable().has(a.decision) ? [] : [`${where}: ${a.decision} is not a row of spec/DECISIONS.md`];
  if (a.kind === "marks")
    return a.decisions.filter((d) => !decisionTable().has(d)).map((d) => `${where}: ${d} is not a decision row`);
  const out: string[] = [];
  if (!a.facts.length) out.push(`${where}: a seed assertion that declares no fact`);
  if (!a.rows.length) out.push(`${where}: a seed assertion that names no ledger row`);
  const sentences: string[] = [];
  for (const id of a.rows) {
    const row = rows.get(id);
    if (!row) {
      out.push(`${where}: no ledger row ${id}`);
      continue;
    }
    if (!isRule(row))
      out.push(`${where}: ledger row ${id} is not a rule to judge (uncovered, unobservable or unsettled)`);
    sentences.push(row.quote, ...(row.also ?? []));
  }
  const missing = (f: Fact) => !sentences.some((s) => factIn(s, f));
  for (const f of a.facts.filter(missing))
    out.push(`${where}: "${describeFact(f)}" is not in the quoted sentence of ${a.rows.join(", ")}`);
  return out;
}

describe("grounding gate", () => {
  it("grounds every seed assertion's facts in its ledger rows, and names only decisions of the table", () => {
    const problems = [
      ...allChecks.flatMap((c) =>
        Object.entries(c.asserts ?? {}).flatMap(([name, a]) => problemsOf(`${c.id} › ${name}`, a)),
      ),
      ...Object.entries(BUILTIN_ASSERTS).flatMap(([name, a]) => problemsOf(`(every check) › ${name}`, a)),
    ];
    expect(problems).toEqual([]);
  });

  it("has every check declare its assertions, each used by a name", () => {
    const problems = allChecks.flatMap((c) =>
      !c.asserts || !Object.keys(c.asserts).length ? [`${c.id}: declares no assertion`] : [],
    );
    expect(problems).toEqual([]);
    const all = allChecks.flatMap((c) => Object.values(c.asserts ?? {}));
    const seeds = all.filter((a) => a.kind === "seed");
    console.info(
      `grounding: ${allChecks.length} checks declare ${all.length} assertions: ${seeds.length} seed (${seeds.reduce((n, a) => n + a.facts.length, 0)} facts over ${new Set(seeds.flatMap((a) => a.rows)).size} ledger rows), ${all.filter((a) => a.kind === "decision").length} decision, ${all.filter((a) => a.kind === "marks").length} judged by the contract's marks`,
    );
  });
});

describe("attribution by assertion", () => {
  it("attributes each failure by the assertion it names, whatever its title or status", () => {
    const f = { check: "tracking-agent-limit-reached", operation: "TrackingAgents_create", status: 400 };
    expect(attribute({ ...f, title: "x answered 400 tracking_agent_limit_reached", judges: "status" })).toMatchObject({
      kind: "decision",
      decision: "D-409",
    });
    expect(attribute({ ...f, title: "x answered 200", status: 200, judges: "refused" })).toMatchObject({
      kind: "seed",
      rows: ["tracking-agents.create.limit-reached", "limits.plan-limits"],
    });
    expect(() => attribute({ ...f, title: "x", judges: "nothing-of-the-kind" })).toThrow(/unknown assertion/);
  });
});

describe("facts", () => {
  const q =
    "| POST /v1/tracking_agents | `{name, instructions}` | TrackingAgent | `tracking_agent_limit_reached`, `not_found` |";
  it("finds a code, and not a status the sentence does not name", () => {
    expect(factIn(q, { kind: "code", value: "tracking_agent_limit_reached" })).toBe(true);
    expect(factIn(q, { kind: "status", value: "409" })).toBe(false);
    expect(factIn(q, { kind: "code", value: "tracking_agent" })).toBe(false);
  });
  it("needs the word required beside the field for a required fact", () => {
    expect(
      factIn("| POST /v1/custom_parameters | `{name, instructions, value_type}` |", {
        kind: "required",
        value: "instructions",
      }),
    ).toBe(false);
    expect(factIn("body `{name: string 1-255, required}`", { kind: "required", value: "name" })).toBe(true);
  });
  it("reads numbers as the seed prints them, never inside another number", () => {
    expect(factIn("count 20-1000, default 200", { kind: "number", value: "1000" })).toBe(true);
    expect(factIn("count 20-1000, default 200", { kind: "number", value: "100" })).toBe(false);
    expect(factIn("count 20-1000, default 200", { kind: "default", value: "200" })).toBe(true);
    expect(factIn("count 20-1000, default 200", { kind: "default", value: "20" })).toBe(false);
    expect(factIn("at most 1,000 posts", { kind: "number", value: "1000" })).toBe(true);
  });
});
