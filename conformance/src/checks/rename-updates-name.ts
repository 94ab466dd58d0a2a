import type { AudiencesAudienceDataset, CustomParametersCustomParameter } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import { AUD, createAudienceDataset } from "./support/audiences.ts";
import { CP, createParameter } from "./support/custom-parameters.ts";
import { is2xx, seen } from "./support/util.ts";

/** A rename answers the resource with the new name, and a read returns it. */
export default defineCheck({
  id: "rename-updates-name",
  phase: "groups",
  rule: "PATCH /v1/audience_datasets/{id} {name} answers 200 with the AudienceDataset carrying the new name; PATCH /v1/custom_parameters/{id} {name} answers the CustomParameter with the new name; a GET afterwards reads the new name",
  section: "Endpoints › Audience datasets (PATCH); Endpoints › Custom parameters (PATCH)",
  severity: "major",
  rules: {
    seed: "| PATCH /v1/audience_datasets/{audience_dataset_id} | body `{name}` | 200, AudienceDataset |",
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
    const renamed = async (what: string, path: string, name: string, status: (ex: Exchange) => boolean) => {
      const patch = await ctx.req({ method: "PATCH", path, body: { name } });
      const got = dataOf<{ name: string }>(patch)?.name;
      ctx.expect(
        status(patch) && got === name,
        {
          title: `renaming ${what} answered ${patch.status} with name ${JSON.stringify(got)}`,
          received: seen(patch),
          expected: { status: 200, data: { name } },
        },
        patch,
      );
      const read = await ctx.req({ method: "GET", path });
      const readName = dataOf<{ name: string }>(read)?.name;
      ctx.expect(
        read.status === 200 && readName === name,
        {
          title: `${what} read after a rename answered ${read.status} with name ${JSON.stringify(readName)}`,
          received: seen(read),
          expected: { status: 200, data: { name } },
        },
        read,
      );
    };

    // Custom parameters: the table states CustomParameter (no status): any 2xx carrying it.
    const cp = await createParameter(ctx, "cp-rename");
    await renamed(
      "a custom parameter",
      `${CP}/${encodeURIComponent(cp.id)}`,
      ctx.name("cp-renamed"),
      (ex) => is2xx(ex) && dataOf<CustomParametersCustomParameter>(ex)?.id === cp.id,
    );

    // Audience datasets (last: a plan without audience research skips here): the table states 200, AudienceDataset.
    const ad = await createAudienceDataset(ctx, "aud-rename");
    await renamed(
      "an audience dataset",
      `${AUD}/${encodeURIComponent(ad)}`,
      ctx.name("aud-renamed"),
      (ex) => ex.status === 200 && dataOf<AudiencesAudienceDataset>(ex)?.id === ad,
    );
  },
});
