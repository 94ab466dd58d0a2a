import type { AudiencesAudienceDataset, CustomParametersCustomParameter } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import { AUD, createAudienceDataset } from "./support/audiences.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";
import { is2xx, seen } from "./support/util.ts";

/**
 * A rename answers the resource with the new name, and a read returns it.
 * The audience dataset's PATCH answers 200 (its table row says so); the
 * custom parameter's answers the CustomParameter with no status named, so
 * any 2xx, and its read too.
 */
export default defineCheck({
  id: "rename-updates-name",
  phase: "groups",
  rule: "PATCH /v1/audience_datasets/{id} {name} answers 200 with the AudienceDataset carrying the new name; PATCH /v1/custom_parameters/{id} {name} answers (a 2xx) the CustomParameter with the new name; a GET afterwards reads the new name",
  section: "Endpoints › Audience datasets (PATCH); Endpoints › Custom parameters (PATCH)",
  severity: "major",
  asserts: {
    audience: seed("audience-datasets.update", words("body {name}"), status(200), words("AudienceDataset")),
    parameter: seed("custom-parameters.update", field("name"), words("CustomParameter")),
  },
  requires: [
    "POST /v1/audience_datasets",
    "PATCH /v1/audience_datasets/{audience_dataset_id}",
    "GET /v1/audience_datasets/{audience_dataset_id}",
    "POST /v1/custom_parameters",
    "PATCH /v1/custom_parameters/{parameter_id}",
    "GET /v1/custom_parameters/{parameter_id}",
  ],
  async run(ctx) {
    const renamed = async (
      judges: "audience" | "parameter",
      what: string,
      path: string,
      name: string,
      answered: (ex: Exchange) => boolean,
      expectedStatus: number | string,
    ) => {
      const patch = await ctx.req({ method: "PATCH", path, body: { name } });
      const got = dataOf<{ name: string }>(patch)?.name;
      ctx.expect(
        answered(patch) && got === name,
        {
          judges,
          title: `renaming ${what} answered ${patch.status} with name ${JSON.stringify(got)}`,
          received: seen(patch),
          expected: { status: expectedStatus, data: { name } },
        },
        patch,
      );
      const read = await ctx.req({ method: "GET", path });
      const readName = dataOf<{ name: string }>(read)?.name;
      ctx.expect(
        is2xx(read) && readName === name,
        {
          judges,
          title: `${what} read after a rename answered ${read.status} with name ${JSON.stringify(readName)}`,
          received: seen(read),
          expected: { status: expectedStatus, data: { name } },
        },
        read,
      );
    };

    // Custom parameters: the table states CustomParameter (no status): any 2xx carrying it.
    const cp = await createParameter(ctx, "cp-rename");
    await renamed(
      "parameter",
      "a custom parameter",
      `${CP}/${encodeURIComponent(cp.id)}`,
      ctx.name("cp-renamed"),
      (ex) => is2xx(ex) && dataOf<CustomParametersCustomParameter>(ex)?.id === cp.id,
      "2xx",
    );

    // Audience datasets (last: a plan without audience research skips here): the table states 200, AudienceDataset.
    const ad = await createAudienceDataset(ctx, "aud-rename");
    await renamed(
      "audience",
      "an audience dataset",
      `${AUD}/${encodeURIComponent(ad)}`,
      ctx.name("aud-renamed"),
      (ex) => ex.status === 200 && dataOf<AudiencesAudienceDataset>(ex)?.id === ad,
      200,
    );
  },
});
