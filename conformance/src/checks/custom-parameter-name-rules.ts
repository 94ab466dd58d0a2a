import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterDuplicateNameError,
  CustomParametersCustomParameterEmptyNameError,
} from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { idOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";

/** Names are required, not blank, and unique per account, on create and on rename. */
export default defineCheck({
  id: "custom-parameter-name-rules",
  phase: "groups",
  rule: "Creating or renaming a custom parameter to an empty or blank name gets 400 custom_parameter_empty_name; to a name the account already uses gets 409 custom_parameter_duplicate_name (transient false); nothing is created or renamed",
  section:
    "Endpoints › Custom parameters (create, PATCH errors); Resources › Custom parameter (name unique per account)",
  severity: "major",
  rules: {
    seed: "`name` (string, required non-empty, unique per account)",
    decisions: [
      decision("D-409", { title: /duplicate|taken|already/, status: (s) => s >= 400 && s < 500 && s !== 409 }),
      decision("D-400", { title: /empty|blank/, status: (s) => s >= 400 && s < 500 && s !== 400 }),
      decision("D-CP-NAME", { title: /256|characters/ }),
      decision("D-CP-PATCH", { ops: /^CustomParameters_update$/ }),
    ],
  },
  decisions: ["D-CP-NAME", "D-400", "D-409", "D-CP-PATCH"],
  requires: [
    "POST /v1/custom_parameters",
    "PATCH /v1/custom_parameters/{parameter_id}",
    "GET /v1/custom_parameters/{parameter_id}",
  ],
  async run(ctx) {
    const a = await createParameter(ctx, "cp-names-a");
    const b = await createParameter(ctx, "cp-names-b");
    const body = (name: string) => ({
      name,
      instructions: "Is the post positive about oat milk? Answer yes or no.",
      value_type: "string",
    });
    const cases: Array<{
      label: string;
      method: "POST" | "PATCH";
      path: string;
      body: unknown;
      status: number;
      code: string;
    }> = [
      {
        label: "create with an empty name",
        method: "POST",
        path: CP,
        body: body(""),
        status: 400,
        code: "custom_parameter_empty_name",
      },
      {
        label: "create with a blank name",
        method: "POST",
        path: CP,
        body: body("   "),
        status: 400,
        code: "custom_parameter_empty_name",
      },
      {
        label: "create with a name in use",
        method: "POST",
        path: CP,
        body: body(a.name),
        status: 409,
        code: "custom_parameter_duplicate_name",
      },
      {
        label: "rename to an empty name",
        method: "PATCH",
        path: `${CP}/${encodeURIComponent(b.id)}`,
        body: { name: "" },
        status: 400,
        code: "custom_parameter_empty_name",
      },
      {
        label: "rename to a name in use",
        method: "PATCH",
        path: `${CP}/${encodeURIComponent(b.id)}`,
        body: { name: a.name },
        status: 409,
        code: "custom_parameter_duplicate_name",
      },
    ];
    for (const c of cases) {
      const ex = await ctx.req({ method: c.method, path: c.path, body: c.body });
      // a create the server should have refused is still cleaned up
      const created = ex.status === 201 ? idOf(ex) : undefined;
      if (created !== undefined) ctx.track("custom parameter", `${CP}/${encodeURIComponent(created)}`);
      const refusal = bodyOf<
        CustomParametersCustomParameterEmptyNameError | CustomParametersCustomParameterDuplicateNameError
      >(ex);
      ctx.expect(
        ex.status === c.status && errorCode(ex) === c.code && refusal?.transient === false,
        {
          title: `${c.label} answered ${ex.status} ${errorCode(ex) ?? ""}`,
          received: seen(ex),
          expected: { status: c.status, error_code: c.code, transient: false },
        },
        ex,
      );
    }
    const still = await ctx.req({ method: "GET", path: `${CP}/${encodeURIComponent(b.id)}` });
    ctx.expect(
      still.status === 200 && dataOf<CustomParametersCustomParameter>(still)?.name === b.name,
      {
        title: "a refused rename changed the name",
        received: seen(still),
        expected: { name: b.name },
      },
      still,
    );
  },
});
