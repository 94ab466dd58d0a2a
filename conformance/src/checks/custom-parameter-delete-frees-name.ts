import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterNotFoundError,
} from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";
import { idOf, is2xx, seen, walk } from "./support/util.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";

/**
 * Deleting a parameter answers an empty body; the parameter then no longer
 * exists: it reads 404 custom_parameter_not_found, leaves the list, and its
 * name (unique per account) can be used by a new parameter. The 204 and the
 * new parameter's 201 are the contract's statuses.
 */
export default defineCheck({
  id: "custom-parameter-delete-frees-name",
  phase: "groups",
  rule: "DELETE /v1/custom_parameters/{id} answers an empty body (204, D-CP-DELETE); the parameter then reads 404 custom_parameter_not_found, leaves the list, and its name can be used by a new parameter (201, D-CREATE-201)",
  section: "Endpoints › Custom parameters (DELETE); Resources › Custom parameter (name unique per account)",
  severity: "major",
  asserts: {
    deleted: seed("custom-parameters.delete", words("empty body")),
    deleteStatus: decided("D-CP-DELETE", status(204)),
    gone: seed(
      ["custom-parameters.read.404", "service.scope.foreign-404"],
      status(404),
      code("custom_parameter_not_found"),
      words("one that does not exist, yields 404"),
    ),
    unlisted: seed("custom-parameters.list", words("array of CustomParameter")),
    nameFreed: seed("custom-parameter.name-required-unique", words("unique per account")),
    createStatus: decided("D-CREATE-201", status(201)),
  },
  requires: ["POST /v1/custom_parameters", "DELETE /v1/custom_parameters/{parameter_id}", "GET /v1/custom_parameters"],
  async run(ctx) {
    const cp = await createParameter(ctx, "cp-delete");
    const path = `${CP}/${encodeURIComponent(cp.id)}`;
    const del = await ctx.req({ method: "DELETE", path });
    if (
      !ctx.expect(
        is2xx(del) && del.text.length === 0,
        {
          judges: "deleted",
          title: `DELETE answered ${del.status} with ${del.text.length ? "a body" : "no body"}`,
          received: seen(del),
          expected: { status: 204, body: "" },
        },
        del,
      )
    )
      return;
    ctx.untrack(path);
    ctx.expect(
      del.status === 204,
      { judges: "deleteStatus", title: `DELETE answered ${del.status}`, received: del.status, expected: 204 },
      del,
    );
    const read = await ctx.req({ method: "GET", path });
    ctx.expect(
      read.status === 404 &&
        bodyOf<CustomParametersCustomParameterNotFoundError>(read)?.error_code === "custom_parameter_not_found",
      {
        judges: "gone",
        title: `a deleted parameter reads ${read.status}`,
        received: seen(read),
        expected: { status: 404, error_code: "custom_parameter_not_found" },
      },
      read,
    );
    const listed = await walk<CustomParametersCustomParameter>(ctx, CP, { limit: 100, maxPages: 10, bareArray: true });
    if (!listed.complete) ctx.notExercised("the parameter list could not be walked to its end");
    else
      ctx.expect(
        !listed.items.some((p) => p?.id === cp.id),
        {
          judges: "unlisted",
          title: "the deleted parameter is still listed",
          received: listed.items.map((p) => p?.id),
          expected: `no ${cp.id}`,
        },
        listed.pages.at(-1),
      );
    const again = await ctx.req({
      method: "POST",
      path: CP,
      body: { name: cp.name, instructions: "Which brand does the post mention?", value_type: "string" },
    });
    const againId = idOf(again);
    if (is2xx(again) && againId !== undefined) ctx.track("custom parameter", `${CP}/${encodeURIComponent(againId)}`);
    if (
      ctx.expect(
        is2xx(again) && againId !== undefined,
        {
          judges: "nameFreed",
          title: `reusing a deleted parameter's name answered ${again.status}`,
          received: seen(again),
          expected: { status: 201 },
        },
        again,
      )
    )
      ctx.expect(
        again.status === 201,
        {
          judges: "createStatus",
          title: `the parameter reusing a freed name was created with ${again.status}`,
          received: again.status,
          expected: 201,
        },
        again,
      );
  },
});
