// /v1/datasets/{dataset_id}/runs: start a run (202), list, read — thin adapters over DatasetRunService.
import { Hono } from "hono";
import {
  zDatasetRunsCreateBody,
  zDatasetRunsCreatePath,
  zDatasetRunsListPath,
  zDatasetRunsListQuery,
  zDatasetRunsReadPath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

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
