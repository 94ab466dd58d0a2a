// Which kind of rule each finding enforces: a SEED RULE (the seed states it;
// quoted in its own words) or a CONTRACT DECISION on a point the seed leaves
// open (a D- row of spec/DECISIONS.md). Each check declares its `rules` in its
// own file (defineCheck); this module applies them to findings.
// `test/attribution.test.ts` fails when a check declares no rule or names a
// decision the table does not have.
//
// It lives in the kit's src/ (not spec/) because the published package ships
// src/ and reads it at run time, beside decisions.ts (the table), lenient.ts
// (the lenient rows) and decisions-pending.ts (rows without a check).
//
// Attribution is per failure, not per check: a check that enforces both a
// seed rule and a decision (date-range-order-422: the seed says `from` must
// precede `to`, the contract decides the answer is a 422 validation body)
// attributes a reversed range that is ACCEPTED to the seed, and one refused
// with another status to D-DATE-RANGE-ORDER. A failure is matched, in order:
//   -. the rule the check named on the failure itself (the provenance of a
//      constraint, see provenance.ts: a decision, or the seed's words);
//   -. an answer at a status the seed never names (413, 415, 405…), for
//      response-level checks: the whole answer is a decision;
//   0. the check's `seedWhen`: cases that break its seed rule whatever else matches;
//   1. STATUS_DECISIONS: the success status of an operation the seed gives
//      none (any check whose failure is that operation answering another 2xx;
//      not for checks whose requests must be refused);
//   2. the check's own decision rules (`when`: title, operation, status, or
//      the check that sent the exchange, for response-level checks);
//   3. the check's seed rule; a check without one falls on its first decision.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { allChecks } from "./registry.ts";
import { LEDGER } from "./seed-ledger/rules.ts";
import { rowsQuoting } from "./contract.ts";
import type { Assertion, Asserts } from "./grounding/assertions.ts";
import { describeFact } from "./grounding/facts.ts";
import type { Attribution, CheckRules, Failure, Match } from "./types.ts";

// the shapes live in types.ts (a finding carries its attribution), re-exported for the callers
export type { Attribution, CheckRules, DecisionRule, Match, RuleKind } from "./types.ts";

// the success statuses the contract chose where the seed names none: their own module, so checks can read them
export { STATUS_DECISIONS } from "./status-decisions.ts";
import { STATUS_DECISIONS } from "./status-decisions.ts";

/** Statuses the seed names somewhere (its endpoint tables, its Errors table, the MCP 307). */
const SEED_STATUSES = new Set([200, 201, 202, 204, 307, 400, 401, 402, 404, 409, 422, 429, 500]);
/** The decision row of a status the seed never names; D-UNNAMED-STATUS for any other. */
const UNNAMED_STATUS: Record<number, string> = {
  408: "D-TRANSPORT-ERRORS",
  413: "D-BODY-LIMIT",
  415: "D-CONTENT-TYPE",
  417: "D-TRANSPORT-ERRORS",
  431: "D-TRANSPORT-ERRORS",
  503: "D-AI-5XX",
  504: "D-AI-5XX",
};
/** Checks that judge the status itself on every answer (a server fault is one at any status). */
const STATUS_JUDGES = new Set(["no-server-errors"]);

/**
 * The decision an answer at a status the seed never names falls under, for
 * findings of response-level checks: everything about such an answer (body,
 * headers) is the contract's choice. An active check that sent a valid
 * request and got such an answer keeps its own rule: the refusal is the finding.
 */
export function unnamedStatusDecision(check: string, status: number | undefined): string | undefined {
  if (typeof status !== "number" || status < 200 || SEED_STATUSES.has(status) || STATUS_JUDGES.has(check)) return;
  const c = allChecks.find((x) => x.id === check);
  if (!c || !("inspect" in c)) return;
  return UNNAMED_STATUS[status] ?? "D-UNNAMED-STATUS";
}

/**
 * Every check's rules, from the registry (each check declares its own), and
 * the kit's own preflight finding, which is not a check of the registry.
 */
export const CHECK_RULES: Record<string, CheckRules> = {
  ...Object.fromEntries(allChecks.map((c) => [c.id, c.rules ?? {}])),
  "served-groups": {
    seed: "The service collects public social posts … It can also profile the people behind the posts, detect recurring patterns, and extract custom fields with an LLM. It re-scrapes on a schedule through tracking agents and answers questions through an AI assistant.",
  },
};

// ---- the decision table's own words -------------------------------------------------

export interface DecisionText {
  id: string;
  point: string;
  seed: string;
  decided: string;
  kit: string;
}

const tablePaths = [
  new URL("../../spec/DECISIONS.md", import.meta.url),
  new URL("../contract/DECISIONS.md", import.meta.url),
].map((u) => fileURLToPath(u));
let table: Map<string, DecisionText> | undefined;

/** Every row of spec/DECISIONS.md (also the copy the published package carries); empty when neither is there. */
export function decisionTable(): Map<string, DecisionText> {
  if (table) return table;
  table = new Map();
  const path = tablePaths.find((p) => existsSync(p));
  if (!path) return table;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!/^\|\s*D-[A-Z0-9-]+\s*\|/.test(line)) continue;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim().replace(/\\\|/g, "|"));
    const [id, point, seed, decided, kit] = cells;
    if (id) table.set(id, { id, point: point ?? "", seed: seed ?? "", decided: decided ?? "", kit: kit ?? "" });
  }
  return table;
}

/** The attribution of a finding to one decision row (its words from the table). */
export function decisionAttribution(id: string): Attribution {
  const row = decisionTable().get(id);
  return { kind: "decision", decision: id, seed: row?.seed, decided: row?.decided };
}

function matches(m: Match, f: Failure, text: string): boolean {
  // the title without its `<check id>: ` prefix (a check's own name must not decide the rule)
  if (m.title && !m.title.test(text.startsWith(`${f.check}: `) ? text.slice(f.check.length + 2) : text)) return false;
  if (m.ops && !(f.operation && m.ops.test(f.operation))) return false;
  if (m.status && !(typeof f.status === "number" && m.status(f.status))) return false;
  if (m.received && !m.received.test(JSON.stringify(f.received ?? null) ?? "")) return false;
  if (m.sentBy) {
    const sender = /sent by ([a-z0-9-]+)\)/.exec(f.message ?? "")?.[1];
    if (!sender || !m.sentBy.includes(sender)) return false;
  }
  return true;
}

/**
 * Assertions every check has without declaring them: the kit's own findings
 * about an answer that stopped a check (answer-finding.ts).
 */
export const BUILTIN_ASSERTS: Asserts = {
  "(unreadable answer)": {
    kind: "seed",
    rows: ["service.json-bodies"],
    facts: [{ kind: "words", value: "All bodies are JSON." }],
  },
  "(no answer)": { kind: "decision", decision: "D-KIT-NO-ANSWER", facts: [] },
};

/** Each check's declared assertions, by check id (checks that declare none are absent). */
export const CHECK_ASSERTS: Record<string, Asserts> = Object.fromEntries(
  allChecks.filter((c) => c.asserts).map((c) => [c.id, c.asserts!]),
);

const ledgerRow = new Map(LEDGER.map((r) => [r.id, r]));

/** The ledger rows a schema check's finding can carry: shapes, bounds, and the codes per operation. */
const FINDING_KINDS = new Set(["shape", "bound", "error"]);

/** The attribution an assertion gives its failures: the ledger rows' words, or the decision row's. */
export function assertionAttribution(a: Assertion, f: Pick<Failure, "decision" | "seedQuote">): Attribution {
  if (a.kind === "decision") return { ...decisionAttribution(a.decision), facts: a.facts };
  if (a.kind === "seed")
    return {
      kind: "seed",
      seed: a.rows.map((id) => ledgerRow.get(id)?.quote ?? id).join(" … "),
      rows: a.rows,
      facts: a.facts,
    };
  // the contract's marks: the failure names the mark it broke (a seed mark's rows are the ledger rows its quote carries)
  if (f.decision) return decisionAttribution(f.decision);
  const rows = rowsQuoting(f.seedQuote, FINDING_KINDS);
  return { kind: "seed", seed: f.seedQuote, ...(rows.length ? { rows } : {}) };
}

/** The rule one failure enforces. */
export function attribute(f: Failure): Attribution {
  const text = `${f.title} ${f.message ?? ""}`;
  const rules = CHECK_RULES[f.check];
  // an answer at a status the seed never names: everything a response check finds about it is the contract's choice
  const unnamed = unnamedStatusDecision(f.check, f.status);
  if (f.judges) {
    const a = CHECK_ASSERTS[f.check]?.[f.judges] ?? BUILTIN_ASSERTS[f.judges];
    if (!a) throw new Error(`kit defect: ${f.check} names an unknown assertion "${f.judges}"`);
    if (unnamed && a.kind !== "decision") return decisionAttribution(unnamed);
    return assertionAttribution(a, f);
  }
  if (f.decision) return decisionAttribution(f.decision);
  if (f.seedQuote) return { kind: "seed", seed: f.seedQuote };
  if (unnamed) return decisionAttribution(unnamed);
  if (rules?.seedWhen?.some((m) => matches(m, f, text))) return { kind: "seed", seed: rules.seed };
  if (f.operation && typeof f.status === "number" && !rules?.refusals) {
    const st = STATUS_DECISIONS.find((r) => r.ops.test(f.operation!) && r.status(f.status!));
    if (st) return decisionAttribution(st.decision);
  }
  const hit = rules?.decisions?.find((d) => d.when && matches(d.when, f, text));
  if (hit) return decisionAttribution(hit.decision);
  if (rules?.seed || !rules?.decisions?.length) return { kind: "seed", seed: rules?.seed };
  return decisionAttribution(rules.decisions[0]!.decision);
}

/** The rule a warning concerns: a lenient row names itself (`D-… (lenient): …`), otherwise the check's rules decide. */
export function attributeWarning(check: string, text: string): Attribution {
  const named = /^(D-[A-Z0-9-]+)\b/.exec(text)?.[1] ?? /\b(D-[A-Z0-9-]+) \(lenient\)/.exec(text)?.[1];
  if (named) return decisionAttribution(named);
  return attribute({ check, title: text });
}

/** Decisions a check can attribute a finding to (declared, or named by its rules). */
export function decisionsOf(check: string): string[] {
  return [...new Set((CHECK_RULES[check]?.decisions ?? []).map((d) => d.decision))];
}

/** One line naming the rule: the seed's words, or the decision, what it decided, and that the seed leaves the point open (with what it does say). */
export function describeAttribution(a: Attribution, max = 160): string {
  const cut = (s: string) => (s.length > max ? s.slice(0, max - 1) + "…" : s);
  if (a.kind === "seed") {
    const asserted = a.facts?.length ? ` — asserts ${a.facts.map(describeFact).join(", ")}` : "";
    const rows = a.rows?.length ? ` [${a.rows.join(", ")}]` : "";
    return `seed rule${rows}${a.seed ? `: "${cut(a.seed)}"` : ""}${asserted}`;
  }
  return `contract decision ${a.decision}${a.decided ? `: ${cut(a.decided)}` : ""} — a point the seed leaves open${a.seed ? ` (the seed says: ${cut(a.seed)})` : ""}`;
}
