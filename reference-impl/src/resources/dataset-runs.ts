// /v1/datasets/{dataset_id}/runs: start a run (202), list, read.
import { Hono } from "hono";
import {
  zDatasetRunsCreateBody,
  zDatasetRunsCreatePath,
  zDatasetRunsListPath,
  zDatasetRunsListQuery,
  zDatasetRunsReadPath,
} from "../../../generated/client/zod.gen.ts";
import { createRun, runCreatedView, runView } from "../domain/dataset-runs.ts";
import type { Services } from "../domain/services.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { NotFoundError } from "../platform/errors.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";
import { findDataset } from "./datasets.ts";

export function datasetRunsResource(services: Services) {
  const app = new Hono<AppEnv>();

  app.post("/:dataset_id/runs", validPath(zDatasetRunsCreatePath), validBody(zDatasetRunsCreateBody), (c) => {
    const { account } = c.get("principal");
    const dataset = findDataset(services, account.id, c.req.valid("param").dataset_id);
    const run = createRun(services, account, dataset, c.req.valid("json"));
    return c.json(ok(runCreatedView(run)), 202);
  });

  app.get("/:dataset_id/runs", validPath(zDatasetRunsListPath), validQuery(zDatasetRunsListQuery, "DatasetRuns_list"), (c) => {
    const { account } = c.get("principal");
    const dataset = findDataset(services, account.id, c.req.valid("param").dataset_id);
    const q = c.req.valid("query");
    const page = services.runs.page(
      account.id,
      { limit: q.limit, order: q.order, cursor: q.cursor, scope: { r: "dataset_runs", dataset: dataset.id, order: q.order } },
      (r) => r.dataset_id === dataset.id,
    );
    return c.json(list({ ...page, items: page.items.map(runView) }));
  });

  app.get("/:dataset_id/runs/:run_id", validPath(zDatasetRunsReadPath), (c) => {
    const { account } = c.get("principal");
    const { dataset_id, run_id } = c.req.valid("param");
    const dataset = findDataset(services, account.id, dataset_id);
    const run = services.runs.get(account.id, run_id);
    if (!run || run.dataset_id !== dataset.id) throw new NotFoundError("dataset_not_found", "Dataset run not found.");
    return c.json(ok(runView(run)));
  });

  return app;
}
