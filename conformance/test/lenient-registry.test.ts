// The lenient rows of spec/DECISIONS.md and the one registry that tolerates them (conformance/src/lenient.ts) agree:
// no check writes its own "(lenient)" warning, every row whose Kit column says lenient has a registry entry (or is
// listed below with the reason it has none), and every registry entry is a lenient row some check asks for.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readDecisions } from "../src/decisions.ts";
import { PENDING_DECISIONS } from "../src/decisions-pending.ts";
import { LENIENT, lenientWarning, type LenientId } from "../src/lenient.ts";
import { attributeWarning } from "../src/attribution.ts";
import { Contract, schemaDecisions } from "../src/contract.ts";
import type { Exchange } from "../src/http.ts";
import { inspectWith } from "./helpers.ts";

// the checks and their shared helpers (checks/support/)
const checksDir = fileURLToPath(new URL("../src/checks/", import.meta.url));
const sources = ["", "support/"]
  .flatMap((sub) =>
    readdirSync(checksDir + sub)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => sub + f),
  )
  .map((f) => ({
    file: f,
    code: readFileSync(checksDir + f, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|\s)\/\/.*$/gm, "$1"),
  }));

/**
 * Lenient rows without a registry entry, each with the reason. None of them is warned by hand (the first test
 * forbids that); what they tolerate no check judges at all, so the deployment's choice passes without a finding.
 * Rows whose check does not exist yet are in decisions-pending.ts instead. This list may only shrink: an id that
 * gets a registry entry must leave it.
 */
export const LENIENT_NOT_WARNED: Record<string, string> = {
  "D-TRANSPORT-ERRORS":
    "response-schema-conformance judges a documented 431 or 417 like any error; no check sends a head over 16 KiB or an odd Expect, so the empty body the row accepts is never met",
  "D-TA-CYCLE":
    "tracking-agent-trigger-202-then-409 and tracking-agent-cycle-billing hold what is strict (runs started, their count); the lenient part is not judged",
  "D-TA-ALERT-EVERY-CYCLE":
    "tracking-agent-feed-newest-first holds a message per triggered cycle; skipped schedule slots (the lenient part) never happen in a kit run",
  "D-OAUTH":
    "mcp-unauthenticated-401 holds the header and the required fields of the document; the optional fields are D-MCP-OAUTH-METADATA's entry",
  "D-RUN-TRANSITIONS":
    "lenient on timing: the run state machines judge the order of states only, never how long a state lasts",
  "D-RUN-PARAMS-ECHO": "valid-run-body-accepted does not judge null vs absent echoed parameters",
  "D-RUN-COUNT":
    "no check compares requested_count with count; tracking-agent-cycle-billing only reads the reserved count",
  "D-AUD-PROFILE-FILTERS":
    "the kit sends only the listed filter variants; one a deployment accepts beyond them is never sent",
  "D-AUD-RUN-ORDER": "audience run lists are not judged on order beyond the generic pagination checks",
  "D-AUD-ELIGIBLE":
    "audience-run-codes-in-order judges the code of a source below the minimum, not how eligible posts are counted",
  "D-PREVIEW-URL-LISTS":
    "preview-url-charge-per-returning-url holds the types and that each URL is in one list; which list a failed URL lands in is not judged",
  "D-CP-NAME":
    "custom-parameter-name-rules sends exact duplicates only; trimmed or case-folded duplicates are not sent",
  "D-CP-PATCH":
    "name and instructions are strict in custom-parameter-name-rules; how a body carrying value_type is treated is not judged",
  "D-CP-PREVIEW-MISS": "custom-parameter-preview-free accepts null or a value for a post the preview cannot read",
  "D-CP-DELETE": "the 204 and later 404 are strict; what happens to a run in flight is not judged",
  "D-CPR-STATES":
    "custom-parameter-run-counters holds the enum; the moment completed appears relative to the counters is not judged",
  "D-CPR-CHECK-ORDER":
    "custom-parameter-run-codes sends one broken condition per request, so the order is never observable",
  "D-CPR-VISIT": "the order in which a run visits mentions is not judged",
  "D-TA-CREATE-404":
    "no check creates an agent on an unknown dataset (tracking-agent-deleted-hidden declares the row); the generated 404 of the create allows both codes, so response-schema-conformance accepts either",
  "D-TA-TRIGGER-PAUSED": "tracking-agent-trigger-202-then-409 does not judge a trigger of a paused agent",
  "D-MESSAGE-POLL": "extra fields and stop_reason values are accepted without a finding (the row says so)",
  "D-MESSAGE-CONTEXT": "the context a turn was given is not judged",
  "D-ME-USAGE": "me-usage-adds-up holds the sum; how a held reservation is shown is not judged",
  "D-MCP-STOP-REASON": "mcp-ask-flow holds null-ness; any string value passes",
  "D-MCP-NO-ARGS": "extra argument keys are accepted: mcp-tool-catalogue never fails them",
  "D-MCP-RATE-HEADERS": "mcp-rate-limit-shared holds the 429 body and Retry-After; what else counts is not judged",
};

const lenientRows = readDecisions().filter((r) => r.checkable && /lenient/i.test(r.kit));

describe("lenient registry", () => {
  it("no check writes a lenient warning by hand (every one comes from lenientWarning or ctx.lenient)", () => {
    const handWritten: string[] = [];
    for (const { file, code } of sources) {
      code.split("\n").forEach((line, i) => {
        if (/\(lenient\)/.test(line) && !/^\s*(section|rule):/.test(line))
          handWritten.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        if (/\.warn\(\s*[`"']D-[A-Z0-9-]+/.test(line))
          handWritten.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(handWritten).toEqual([]);
  });

  it("every row whose Kit column says lenient has a registry entry, a pending reason or a reason it is not warned", () => {
    const missing = lenientRows
      .filter((r) => !(r.id in LENIENT) && !PENDING_DECISIONS[r.id] && !LENIENT_NOT_WARNED[r.id])
      .map((r) => `${r.id}: ${r.kit.slice(0, 100)}`);
    expect(missing).toEqual([]);
  });

  it("the not-warned list only shrinks: no id there has a registry entry, and each is a lenient row", () => {
    const ids = new Set(lenientRows.map((r) => r.id));
    expect(
      Object.keys(LENIENT_NOT_WARNED).filter((id) => id in LENIENT || !ids.has(id) || PENDING_DECISIONS[id]),
    ).toEqual([]);
  });

  it("every registry entry is a lenient row that some check asks for", () => {
    const ids = new Set(lenientRows.map((r) => r.id));
    const all = sources.map((s) => s.code).join("\n");
    // a schema rule is asked for by the provenance marks that name its row (response-schema-conformance)
    const marked = new Set(schemaDecisions("responses"));
    const unused = (Object.keys(LENIENT) as LenientId[]).filter(
      (id) =>
        !ids.has(id) ||
        !(
          new RegExp(`(lenient|lenientWarning)\\(\\s*"${id}"`).test(all) ||
          ("schema" in LENIENT[id] && marked.has(id))
        ),
    );
    expect(unused).toEqual([]);
  });

  it("a registry warning is attributed to its own row", () => {
    for (const id of Object.keys(LENIENT) as LenientId[]) {
      const w = lenientWarning(id, "somewhere");
      expect(w.startsWith(`${id} (lenient): `)).toBe(true);
      expect(attributeWarning("any-check", w)).toMatchObject({ kind: "decision", decision: id });
    }
  });
});

describe("error codes the registry tolerates are tolerated by response-schema-conformance too", () => {
  const contract = Contract.load();
  const inspect = (e: Exchange) => inspectWith(contract, "response-schema-conformance", e);
  const at = (key: string, path: string, body: unknown, status = 404): Exchange => ({
    seq: 1,
    check: "t",
    method: key.split(" ")[0]!,
    url: `http://x${path}`,
    path,
    keyRole: "main",
    requestHeaders: {},
    status,
    headers: {},
    text: JSON.stringify(body),
    json: body,
    meta: {},
    ms: 1,
    op: contract.op(key),
  });
  const env = (error_code: string) => ({ status: "client_error", error_code, detail: "Not found.", transient: false });
  for (const [id, key, path, decided] of [
    [
      "D-MESSAGE-404",
      "GET /v1/chats/{chat_id}/messages/{message_id}",
      "/v1/chats/ch_x/messages/msg_x",
      "chat_not_found",
    ],
    [
      "D-PATTERN-ITEM-404",
      "GET /v1/patterns/{pattern_id}/items/{item_id}",
      "/v1/patterns/pt_x/items/it_x",
      "pattern_not_found",
    ],
    [
      "D-CPR-UNKNOWN-RUN",
      "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
      "/v1/custom_parameters/cp_x/runs/cpr_x",
      "custom_parameter_not_found",
    ],
  ] as const) {
    it(`${id}: not_found on ${key} warns and passes; a broken envelope behind it still fails; the decided code needs no warning`, () => {
      expect(contract.op(key), key).toBeDefined();
      expect(inspect(at(key, path, env("not_found")))).toMatchObject({ fail: 0, pass: 1, warnings: [id] });
      expect(inspect(at(key, path, { ...env("not_found"), transient: "no" })).fail).toBe(1);
      expect(inspect(at(key, path, env(decided)))).toMatchObject({ fail: 0, pass: 1, warnings: [] });
    });
  }
  it("D-PDR-EMPTY: a 400 of a detection with another code warns and passes (the 400 itself is strict in pattern-detection-codes)", () => {
    expect(inspect(at("POST /v1/pattern_detections", "/v1/pattern_detections", env("bad_request"), 400))).toMatchObject(
      { fail: 0, pass: 1, warnings: ["D-PDR-EMPTY"] },
    );
    expect(
      inspect(
        at("POST /v1/pattern_detections", "/v1/pattern_detections", { ...env("bad_request"), transient: "no" }, 400),
      ).fail,
    ).toBe(1);
  });
  it("D-CPR-UNKNOWN-RUN tolerates not_found only (the row says so); another code on the run read still fails", () => {
    expect(
      inspect(
        at(
          "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
          "/v1/custom_parameters/cp_x/runs/cpr_x",
          env("dataset_not_found"),
        ),
      ).fail,
    ).toBe(1);
  });
});
