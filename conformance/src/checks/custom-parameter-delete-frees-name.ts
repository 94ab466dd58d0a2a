import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterNotFoundError,
} from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { idOf, listItemsOf, listOf, seen } from "./support/util.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";

/** Deleting a parameter answers 204, hides it (404, not listed) and frees its name for a new parameter. */
export default defineCheck({
  id: "custom-parameter-delete-frees-name",
  phase: "groups",
  rule: "DELETE /v1/custom_parameters/{id} answers 204; the parameter then reads 404 custom_parameter_not_found, leaves the list, and its name can be used by a new parameter (201)",
  section: "Endpoints › Custom parameters (DELETE)",
  severity: "major",
  rules: {
    seed: "DELETE /v1/custom_parameters/{parameter_id} | | empty body",
    decisions: [decision("D-CP-LIST", { ops: /^CustomParameters_list$/ })],
  },
  decisions: ["D-CP-DELETE", "D-CP-LIST"],
  requires: ["POST /v1/custom_parameters", "DELETE /v1/custom_parameters/{parameter_id}", "GET /v1/custom_parameters"],
  async run(ctx) {
    const cp = await createParameter(ctx, "cp-delete");
    const del = await ctx.req({ method: "DELETE", path: `${CP}/${encodeURIComponent(cp.id)}` });
    if (
      !ctx.expect(
        del.status === 204 && del.text.length === 0,
        {
          title: `DELETE answered ${del.status}`,
          received: seen(del),
          expected: { status: 204, body: "" },
        },
        del,
      )
    )
      return;
    ctx.untrack(`${CP}/${encodeURIComponent(cp.id)}`);
    const read = await ctx.req({ method: "GET", path: `${CP}/${encodeURIComponent(cp.id)}` });
    ctx.expect(
      read.status === 404 &&
        bodyOf<CustomParametersCustomParameterNotFoundError>(read)?.error_code === "custom_parameter_not_found",
      {
        title: `a deleted parameter reads ${read.status}`,
        received: seen(read),
        expected: { status: 404, error_code: "custom_parameter_not_found" },
      },
      read,
    );
    const list = await ctx.req({ method: "GET", path: `${CP}?limit=100` });
    // the ids listed, or undefined when the answer is no list at all
    const listed = listOf(list) ? listItemsOf<CustomParametersCustomParameter>(list).map((p) => p?.id) : undefined;
    ctx.expect(
      list.status === 200 && listed !== undefined && !listed.includes(cp.id),
      {
        title: "the deleted parameter is still listed",
        received: listed ?? seen(list),
        expected: `no ${cp.id}`,
      },
      list,
    );
    const again = await ctx.req({
      method: "POST",
      path: CP,
      body: { name: cp.name, instructions: "Which brand does the post mention?", value_type: "string" },
    });
    const againId = idOf(again);
    if (again.status === 201 && againId !== undefined)
      ctx.track("custom parameter", `${CP}/${encodeURIComponent(againId)}`);
    ctx.expect(
      again.status === 201,
      {
        title: `reusing a deleted parameter's name answered ${again.status}`,
        received: seen(again),
        expected: { status: 201 },
      },
      again,
    );
  },
});
