// Which kind of rule each finding enforces: a SEED RULE (the seed states it,
// in ledger rows whose sentences carry every fact the assertion relies on) or
// a CONTRACT DECISION on a point the seed leaves open (a D- row of
// spec/DECISIONS.md). Each check declares its assertions (`asserts`, see
// grounding/assertions.ts) and names one on every failure (`judges`); this
// module resolves that name, and nothing else: a finding is never attributed
// by its title, its status or what else its check saw, so a decision mismatch
// in a check cannot demote a stated fact beside it (test/grounding.test.ts is
// the gate on the declarations).
//
// Two mechanisms sit around the named assertion:
//   - an answer at a status the seed never names (413, 415, 405…), judged by a
//     response-level check, is the contract's choice as a whole: its findings
//     are that status's decision (an active check that sent a valid request
//     keeps its own assertion: the refusal is the finding);
//   - the schema-driven checks name a `marks` assertion and carry the mark of
//     the constraint they found broken (provenance.ts): a decision, or the
//     seed's quote (its ledger rows derived from the quote).
//
// It lives in the kit's src/ (not spec/) because the published package ships
// src/ and reads it at run time, beside decisions.ts (the table), lenient.ts
// (the lenient rows) and decisions-pending.ts (rows without a check).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { allChecks } from "./registry.ts";
import { LEDGER } from "./seed-ledger/rules.ts";
import { rowsQuoting } from "./contract.ts";
import type { Assertion, Asserts } from "./grounding/assertions.ts";
import { describeFact } from "./grounding/facts.ts";
import { decisionsOfAsserts } from "./grounding/assertions.ts";
import type { Attribution, Failure } from "./types.ts";

// the shapes live in types.ts (a finding carries its attribution), re-exported for the callers
export type { Attribution, RuleKind } from "./types.ts";

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
 * The kit's own preflight (served-groups) is not a check of the registry: a
 * group it finds unserved fails the run only under --require-groups, as the
 * seed's description of what the service does.
 */
const SERVED_GROUPS_SEED =
  "It can also profile the people behind the posts, detect recurring patterns, and extract custom fields with an LLM. It re-scrapes on a schedule through tracking agents and answers questions through an AI assistant.";

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

/** The rule one failure enforces: the assertion it names (a failure that names none is a defect of the kit). */
export function attribute(f: Failure): Attribution {
  if (f.check === "served-groups") return { kind: "seed", seed: SERVED_GROUPS_SEED };
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
  throw new Error(`kit defect: the failure "${f.title}" of ${f.check} names no assertion`);
}

/**
 * The rule a warning concerns: a lenient row names itself (`D-… (lenient): …`
 * or `D-…: …`); any other warning is a note of the check about the seed's
 * rules (what it saw but does not judge), counted with the seed's.
 */
export function attributeWarning(_check: string, text: string): Attribution {
  const named = /^(D-[A-Z0-9-]+)\b/.exec(text)?.[1] ?? /\b(D-[A-Z0-9-]+) \(lenient\)/.exec(text)?.[1];
  if (named) return decisionAttribution(named);
  return { kind: "seed" };
}

/** Decisions a check can attribute a finding to: those its assertions name. */
export function decisionsOf(check: string): string[] {
  const a = CHECK_ASSERTS[check];
  return a ? decisionsOfAsserts(a) : [];
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
