// /v1/audience_datasets (8 operations) and /v1/audience_profiles (search):
// thin adapters over AudienceService; every rule lives in the service.
import { Hono } from "hono";
import {
  zAudienceDatasetsCreateBody,
  zAudienceDatasetsCreateRunBody,
  zAudienceDatasetsCreateRunPath,
  zAudienceDatasetsDeletePath,
  zAudienceDatasetsListQuery,
  zAudienceDatasetsListRunsPath,
  zAudienceDatasetsListRunsQuery,
  zAudienceDatasetsReadPath,
  zAudienceDatasetsReadRunPath,
  zAudienceDatasetsUpdateBody,
  zAudienceDatasetsUpdatePath,
  zAudienceProfilesSearchBody,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function audienceDatasetsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const audiences = services.audiences;

  app.post("/", validBody(zAudienceDatasetsCreateBody), (c) =>
    c.json(ok(audiences.create(c.get("principal"), c.req.valid("json").name)), 201),
  );

  app.get("/", validQuery(zAudienceDatasetsListQuery, "AudienceDatasets_list"), (c) =>
    c.json(list(audiences.list(c.get("principal"), c.req.valid("query")))),
  );

  app.get("/:audience_dataset_id", validPath(zAudienceDatasetsReadPath), (c) =>
    c.json(ok(audiences.read(c.get("principal"), c.req.valid("param").audience_dataset_id))),
  );

  app.patch(
    "/:audience_dataset_id",
    validPath(zAudienceDatasetsUpdatePath),
    validBody(zAudienceDatasetsUpdateBody),
    (c) =>
      c.json(ok(audiences.update(c.get("principal"), c.req.valid("param").audience_dataset_id, c.req.valid("json")))),
  );

  app.delete("/:audience_dataset_id", validPath(zAudienceDatasetsDeletePath), (c) => {
    audiences.delete(c.get("principal"), c.req.valid("param").audience_dataset_id);
    return c.body(null, 204);
  });

  app.post(
    "/:audience_dataset_id/runs",
    validPath(zAudienceDatasetsCreateRunPath),
    validBody(zAudienceDatasetsCreateRunBody),
    (c) =>
      c.json(
        ok(audiences.createRun(c.get("principal"), c.req.valid("param").audience_dataset_id, c.req.valid("json"))),
        202,
      ),
  );

  app.get(
    "/:audience_dataset_id/runs",
    validPath(zAudienceDatasetsListRunsPath),
    validQuery(zAudienceDatasetsListRunsQuery, "AudienceDatasets_listRuns"),
    (c) =>
      c.json(
        list(audiences.listRuns(c.get("principal"), c.req.valid("param").audience_dataset_id, c.req.valid("query"))),
      ),
  );

  app.get("/:audience_dataset_id/runs/:run_id", validPath(zAudienceDatasetsReadRunPath), (c) => {
    const { audience_dataset_id, run_id } = c.req.valid("param");
    return c.json(ok(audiences.readRun(c.get("principal"), audience_dataset_id, run_id)));
  });

  return app;
}

export function audienceProfilesResource(services: Services) {
  const app = new Hono<AppEnv>();
  app.post("/", validBody(zAudienceProfilesSearchBody), (c) =>
    c.json(list(services.audiences.searchProfiles(c.get("principal"), c.req.valid("json")))),
  );
  return app;
}
