import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { idOf, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { AUD } from "./support/audiences.ts";
import { CP } from "./support/custom-parameters.ts";
import { TA } from "./support/tracking.ts";

const MISSING_AD = "ad_slkmissing000000000000";
const MISSING_ADR = "adr_slkmissing000000000000";
const MISSING_PT = "pt_slkmissing000000000000";
const MISSING_CP = "cp_slkmissing000000000000";
const MISSING_CPR = "cpr_slkmissing000000000000";

/**
 * Unknown ids the other checks do not send: each is 404 (existence hidden),
 * with the code the seed's endpoint table names, or, where the seed names
 * none or another, the code the contract decided.
 */
export default defineCheck({
  id: "unknown-id-codes",
  phase: "requests",
  rule: "An unknown id is 404 with its documented code: a run read under an unknown audience dataset and a profile search over one audience_dataset_not_found, a run read under an unknown custom parameter custom_parameter_not_found, an unknown pattern pattern_not_found, a tracking agent over an unknown dataset 404 (dataset_not_found or not_found)",
  section:
    "Resources (a resource that does not exist yields 404); Endpoints › Audience datasets, Audience profiles, Custom parameters, Pattern detections and patterns, Tracking agents",
  severity: "major",
  asserts: {
    "ad-run": seed(
      ["audience-datasets.runs.read.404", "service.scope.foreign-404"],
      status(404),
      code("audience_dataset_not_found"),
    ),
    profiles: seed("audience-profiles.404", status(404), code("audience_dataset_not_found")),
    "cp-run": seed(
      ["custom-parameters.runs.read.404", "service.scope.foreign-404"],
      status(404),
      code("custom_parameter_not_found"),
    ),
    // the pattern reads name no code: the 404 is the seed's, pattern_not_found is D-PATTERN-ITEM-404
    pattern: seed(["patterns.read.404", "service.scope.foreign-404"], status(404)),
    "pattern-code": decided("D-PATTERN-ITEM-404", code("pattern_not_found")),
    // the create row names `not_found`; the contract answers dataset_not_found and accepts either (D-TA-CREATE-404)
    agent: seed(["tracking-agents.create.404", "service.scope.foreign-404"], status(404)),
    "agent-code": decided("D-TA-CREATE-404", code("dataset_not_found")),
  },
  requires: [
    "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
    "POST /v1/audience_profiles",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    "GET /v1/patterns/{pattern_id}",
    "POST /v1/tracking_agents",
  ],
  async run(ctx) {
    /** the endpoint table names the code and the Errors table makes it a 404: one seed rule */
    const named = (judges: "ad-run" | "profiles" | "cp-run", what: string, ex: Exchange, code: string) =>
      ctx.expect(
        ex.status === 404 && errorCode(ex) === code,
        {
          judges,
          title: `${what} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 404, error_code: code },
        },
        ex,
      );

    // Endpoints › Audience datasets: GET …/runs/{run_id} | 200, audience run | `audience_dataset_not_found`
    named(
      "ad-run",
      "a run read under an unknown audience dataset",
      await ctx.req({ method: "GET", path: `${AUD}/${MISSING_AD}/runs/${MISSING_ADR}` }),
      "audience_dataset_not_found",
    );
    // Endpoints › Audience profiles: Error: 404 `audience_dataset_not_found`
    named(
      "profiles",
      "a profile search over an unknown audience dataset",
      await ctx.req({ method: "POST", path: "/v1/audience_profiles", body: { audience_dataset_ids: [MISSING_AD] } }),
      "audience_dataset_not_found",
    );
    // Endpoints › Custom parameters: GET …/runs/{run_id} | run | `custom_parameter_not_found`
    named(
      "cp-run",
      "a run read under an unknown custom parameter",
      await ctx.req({ method: "GET", path: `${CP}/${MISSING_CP}/runs/${MISSING_CPR}` }),
      "custom_parameter_not_found",
    );

    // The pattern reads name no code: the 404 is the seed's, pattern_not_found is D-PATTERN-ITEM-404.
    const pattern = await ctx.req({ method: "GET", path: `/v1/patterns/${MISSING_PT}` });
    if (
      ctx.expect(
        pattern.status === 404,
        {
          judges: "pattern",
          title: `an unknown pattern answered ${pattern.status}`,
          received: seen(pattern),
          expected: { status: 404 },
        },
        pattern,
      )
    )
      ctx.expect(
        errorCode(pattern) === "pattern_not_found",
        {
          judges: "pattern-code",
          title: `the 404 of an unknown pattern carries error_code ${errorCode(pattern) ?? "(none)"}`,
          received: seen(pattern),
          expected: { status: 404, error_code: "pattern_not_found" },
        },
        pattern,
      );

    // The create table names `not_found`; the contract answers dataset_not_found (D-TA-CREATE-404) and accepts either.
    ctx.mutates("a refused tracking agent over an unknown dataset");
    const agent = await ctx.req({
      method: "POST",
      path: TA,
      body: {
        name: ctx.name("ta-unknown-ds"),
        instructions: "Flag shifts in sentiment about oat milk latte art.",
        dataset_ids: [MISSING_DATASET_ID],
        count: 20,
        num_comments_per_post: 0,
        schedule: { frequency: "daily", time: "09:00" },
      },
    });
    const agentId = idOf(agent);
    if (agent.status >= 200 && agent.status < 300 && typeof agentId === "string")
      ctx.track("tracking agent", `${TA}/${encodeURIComponent(agentId)}`);
    if (
      ctx.expect(
        agent.status === 404,
        {
          judges: "agent",
          title: `an agent over an unknown dataset answered ${agent.status}`,
          received: seen(agent),
          expected: { status: 404, error_code: "dataset_not_found" },
        },
        agent,
      )
    ) {
      const code = errorCode(agent);
      ctx.expect(
        code === "dataset_not_found" || code === "not_found",
        {
          judges: "agent-code",
          title: `the 404 of an agent over an unknown dataset carries error_code ${code ?? "(none)"}`,
          received: seen(agent),
          expected: { status: 404, error_code: "dataset_not_found" },
        },
        agent,
      );
    }
  },
});
