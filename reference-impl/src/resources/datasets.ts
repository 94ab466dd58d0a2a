// The datasets group's two resources, thin adapters over DatasetService and
// DatasetRunService: /v1/datasets (create, list, read, rename, soft delete)
// and /v1/datasets/{dataset_id}/runs (start a run with 202, list, read).
import { Hono } from "hono";
import {
  zDatasetRunsCreateBody,
  zDatasetRunsCreatePath,
  zDatasetRunsListPath,
  zDatasetRunsListQuery,
  zDatasetRunsReadPath,
  zDatasetsCreateBody,
  zDatasetsDeletePath,
  zDatasetsListQuery,
  zDatasetsReadPath,
  zDatasetsUpdateBody,
  zDatasetsUpdatePath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function datasetsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { datasets } = services;

  app.post("/", validBody(zDatasetsCreateBody), (c) =>
    c.json(ok(datasets.create(c.get("principal"), c.req.valid("json").name)), 201),
  );

  app.get("/", validQuery(zDatasetsListQuery, "Datasets_list"), (c) =>
    c.json(list(datasets.list(c.get("principal"), c.req.valid("query")))),
  );

  app.get("/:dataset_id", validPath(zDatasetsReadPath), (c) =>
    c.json(ok(datasets.read(c.get("principal"), c.req.valid("param").dataset_id))),
  );

  app.patch("/:dataset_id", validPath(zDatasetsUpdatePath), validBody(zDatasetsUpdateBody, { whenEmpty: {} }), (c) =>
    c.json(ok(datasets.update(c.get("principal"), c.req.valid("param").dataset_id, c.req.valid("json")))),
  );

  app.delete("/:dataset_id", validPath(zDatasetsDeletePath), (c) => {
    datasets.delete(c.get("principal"), c.req.valid("param").dataset_id);
    return c.body(null, 204);
  });

  return app;
}

export function datasetRunsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const runs = services.datasetRuns;

  app.post("/:dataset_id/runs", validPath(zDatasetRunsCreatePath), validBody(zDatasetRunsCreateBody), (c) =>
    c.json(ok(runs.create(c.get("principal"), c.req.valid("param").dataset_id, c.req.valid("json"))), 202),
  );

  app.get(
    "/:dataset_id/runs",
    validPath(zDatasetRunsListPath),
    validQuery(zDatasetRunsListQuery, "DatasetRuns_list"),
    (c) => c.json(list(runs.list(c.get("principal"), c.req.valid("param").dataset_id, c.req.valid("query")))),
  );

  app.get("/:dataset_id/runs/:run_id", validPath(zDatasetRunsReadPath), (c) => {
    const { dataset_id, run_id } = c.req.valid("param");
    return c.json(ok(runs.read(c.get("principal"), dataset_id, run_id)));
  });

  return app;
}
