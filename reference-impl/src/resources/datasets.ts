// /v1/datasets: create, list, read, rename, soft delete.
import { Hono } from "hono";
import {
  zDatasetsCreateBody,
  zDatasetsDeletePath,
  zDatasetsListQuery,
  zDatasetsReadPath,
  zDatasetsUpdateBody,
  zDatasetsUpdatePath,
} from "../../../generated/client/zod.gen.ts";
import { datasetCreatedView, datasetView, newDatasetRow } from "../domain/datasets.ts";
import type { Services } from "../domain/services.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { NotFoundError, ValidationFailed } from "../platform/errors.ts";
import { newId } from "../platform/ids.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function findDataset(services: Services, accountId: string, id: string) {
  const d = services.datasets.get(accountId, id);
  if (!d) throw new NotFoundError("dataset_not_found", "Dataset not found.");
  return d;
}

export function datasetsResource(services: Services) {
  const app = new Hono<AppEnv>();

  app.post("/", validBody(zDatasetsCreateBody), (c) => {
    const { account } = c.get("principal");
    const row = services.datasets.insert(newDatasetRow(newId("ds_"), account.id, c.req.valid("json").name, services.clock.now()));
    return c.json(ok(datasetCreatedView(row)), 201);
  });

  app.get("/", validQuery(zDatasetsListQuery, "Datasets_list"), (c) => {
    const { account } = c.get("principal");
    const q = c.req.valid("query");
    const page = services.datasets.page(account.id, { limit: q.limit, order: q.order, cursor: q.cursor, scope: { r: "datasets", order: q.order } });
    return c.json(list({ ...page, items: page.items.map(datasetView) }));
  });

  app.get("/:dataset_id", validPath(zDatasetsReadPath), (c) => {
    const { account } = c.get("principal");
    return c.json(ok(datasetView(findDataset(services, account.id, c.req.valid("param").dataset_id))));
  });

  app.patch("/:dataset_id", validPath(zDatasetsUpdatePath), validBody(zDatasetsUpdateBody, { whenEmpty: {} }), (c) => {
    const { account } = c.get("principal");
    const dataset = findDataset(services, account.id, c.req.valid("param").dataset_id);
    const body = c.req.valid("json");
    if (body.name !== undefined) {
      if (body.name !== null && body.name.length > 255) {
        throw new ValidationFailed([{ loc: ["body", "name"], msg: "Too big: expected string to have <=255 characters", type: "too_big" }]);
      }
      dataset.name = body.name === "" ? null : body.name;
      dataset.updated_ms = services.clock.now();
    }
    return c.json(ok(datasetView(dataset)));
  });

  app.delete("/:dataset_id", validPath(zDatasetsDeletePath), (c) => {
    const { account } = c.get("principal");
    const dataset = findDataset(services, account.id, c.req.valid("param").dataset_id);
    const now = services.clock.now();
    services.datasets.softDelete(dataset, now);
    for (const run of services.runs.live(account.id, (r) => r.dataset_id === dataset.id)) services.runs.softDelete(run, now);
    return c.body(null, 204);
  });

  return app;
}
