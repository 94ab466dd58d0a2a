import type { CustomParametersCustomParameter } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, required, status, words } from "../grounding/facts.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { idOf, is2xx, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";

type NameCase = {
  label: string;
  method: "POST" | "PATCH";
  path: string;
  body: unknown;
  code: "custom_parameter_empty_name" | "custom_parameter_duplicate_name";
  /** the assertion the refusal and its code judge */
  judges: "emptyCreate" | "duplicateCreate" | "emptyRename" | "duplicateRename" | "blank";
};

/**
 * Names are required non-empty and unique per account, on create and on
 * rename: an empty name is refused with custom_parameter_empty_name, a name
 * in use with custom_parameter_duplicate_name (the seed names the codes, not
 * their statuses: 400 and 409 are D-400's and D-409's). A blank name (spaces
 * only) is not empty as a string: refusing it is D-CP-NAME's.
 */
export default defineCheck({
  id: "custom-parameter-name-rules",
  phase: "groups",
  rule: "Creating or renaming a custom parameter to an empty name is refused with custom_parameter_empty_name (400, D-400), to a name the account already uses with custom_parameter_duplicate_name (409 with transient false, D-409); a blank name is refused like an empty one (D-CP-NAME); a refused rename changes nothing (D-CP-PATCH)",
  section:
    "Endpoints › Custom parameters (create, PATCH errors); Resources › Custom parameter (name unique per account)",
  severity: "major",
  asserts: {
    emptyCreate: seed(
      ["custom-parameter.name-required-unique", "custom-parameters.create.name-errors"],
      required("name"),
      words("non-empty"),
      code("custom_parameter_empty_name"),
    ),
    duplicateCreate: seed(
      ["custom-parameter.name-required-unique", "custom-parameters.create.name-errors"],
      words("unique per account"),
      code("custom_parameter_duplicate_name"),
    ),
    emptyRename: seed(
      ["custom-parameter.name-required-unique", "custom-parameters.update.errors"],
      words("non-empty"),
      code("custom_parameter_empty_name"),
    ),
    duplicateRename: seed(
      ["custom-parameter.name-required-unique", "custom-parameters.update.errors"],
      words("unique per account"),
      code("custom_parameter_duplicate_name"),
    ),
    blank: decided("D-CP-NAME", code("custom_parameter_empty_name")),
    emptyStatus: decided("D-400", status(400)),
    duplicateStatus: decided("D-409", status(409)),
    unchanged: decided("D-CP-PATCH"),
  },
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
    const bPath = `${CP}/${encodeURIComponent(b.id)}`;
    const cases: NameCase[] = [
      {
        label: "create with an empty name",
        method: "POST",
        path: CP,
        body: body(""),
        code: "custom_parameter_empty_name",
        judges: "emptyCreate",
      },
      {
        label: "create with a blank name",
        method: "POST",
        path: CP,
        body: body("   "),
        code: "custom_parameter_empty_name",
        judges: "blank",
      },
      {
        label: "create with a name in use",
        method: "POST",
        path: CP,
        body: body(a.name),
        code: "custom_parameter_duplicate_name",
        judges: "duplicateCreate",
      },
      {
        label: "rename to an empty name",
        method: "PATCH",
        path: bPath,
        body: { name: "" },
        code: "custom_parameter_empty_name",
        judges: "emptyRename",
      },
      {
        label: "rename to a name in use",
        method: "PATCH",
        path: bPath,
        body: { name: a.name },
        code: "custom_parameter_duplicate_name",
        judges: "duplicateRename",
      },
    ];
    for (const c of cases) {
      const ex = await ctx.req({ method: c.method, path: c.path, body: c.body });
      // a create the server should have refused is still cleaned up
      const created = c.method === "POST" && is2xx(ex) ? idOf(ex) : undefined;
      if (created !== undefined) ctx.track("custom parameter", `${CP}/${encodeURIComponent(created)}`);
      const refused = ctx.expect(
        ex.status >= 400 && ex.status < 500 && errorCode(ex) === c.code,
        {
          judges: c.judges,
          title: `${c.label} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: "4xx", error_code: c.code },
        },
        ex,
      );
      if (!refused) continue;
      // the status the seed does not give these codes, and the body the contract gives that status
      const empty = c.code === "custom_parameter_empty_name";
      const want = empty ? 400 : 409;
      ctx.expect(
        ex.status === want && bodyOf<{ transient: boolean }>(ex)?.transient === false,
        {
          judges: empty ? "emptyStatus" : "duplicateStatus",
          title: `${c.label} was refused with ${ex.status} (transient ${JSON.stringify(bodyOf<{ transient: unknown }>(ex)?.transient)})`,
          received: seen(ex),
          expected: { status: want, transient: false },
        },
        ex,
      );
    }
    const still = await ctx.req({ method: "GET", path: bPath });
    if (still.status !== 200) return ctx.notExercised(`the renamed parameter reads ${still.status}`);
    ctx.expect(
      dataOf<CustomParametersCustomParameter>(still)?.name === b.name,
      {
        judges: "unchanged",
        title: "a refused rename changed the name",
        received: seen(still),
        expected: { name: b.name },
      },
      still,
    );
  },
});
