// /v1/custom_parameters: the nine operations, thin adapters over
// CustomParameterService (REST and any other adapter share its rules).
import { Hono } from "hono";
import {
  zCustomParametersCreateBody,
  zCustomParametersCreateRunBody,
  zCustomParametersCreateRunPath,
  zCustomParametersDeletePath,
  zCustomParametersListQuery,
  zCustomParametersListRunsPath,
  zCustomParametersListRunsQuery,
  zCustomParametersPreviewBody,
  zCustomParametersReadPath,
  zCustomParametersReadRunPath,
  zCustomParametersUpdateBody,
  zCustomParametersUpdatePath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import { NotFoundError } from "../platform/errors.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function customParametersResource(services: Services) {
  const app = new Hono<AppEnv>();
  const parameters = services.customParameters;

  app.post("/", validBody(zCustomParametersCreateBody), (c) =>
    c.json(ok(parameters.create(c.get("principal"), c.req.valid("json"))), 201),
  );

  app.get("/", validQuery(zCustomParametersListQuery, "CustomParameters_list"), (c) =>
    c.json(list(parameters.list(c.get("principal"), c.req.valid("query")))),
  );

  // POST /preview is declared as the /:parameter_id shape and lets only the
  // literal "preview" through (any other segment is the unknown route it was
  // before): a literal segment beside POST /:parameter_id/runs is a shape
  // Hono's RegExpRouter refuses, and one such route drops the whole app to the
  // slower TrieRouter (throughput).
  app.post(
    "/:parameter_id",
    (c, next) => {
      if (c.req.param("parameter_id") !== "preview") throw new NotFoundError("not_found", "No such route.");
      return next();
    },
    validBody(zCustomParametersPreviewBody),
    (c) => c.json(ok(parameters.preview(c.get("principal"), c.req.valid("json")))),
  );

  app.get("/:parameter_id", validPath(zCustomParametersReadPath), (c) =>
    c.json(ok(parameters.read(c.get("principal"), c.req.valid("param").parameter_id))),
  );

  app.patch(
    "/:parameter_id",
    validPath(zCustomParametersUpdatePath),
    validBody(zCustomParametersUpdateBody, { whenEmpty: {} }),
    (c) => c.json(ok(parameters.update(c.get("principal"), c.req.valid("param").parameter_id, c.req.valid("json")))),
  );

  app.delete("/:parameter_id", validPath(zCustomParametersDeletePath), (c) => {
    parameters.delete(c.get("principal"), c.req.valid("param").parameter_id);
    return c.body(null, 204);
  });

  app.post(
    "/:parameter_id/runs",
    validPath(zCustomParametersCreateRunPath),
    validBody(zCustomParametersCreateRunBody),
    (c) =>
      c.json(ok(parameters.createRun(c.get("principal"), c.req.valid("param").parameter_id, c.req.valid("json"))), 202),
  );

  app.get(
    "/:parameter_id/runs",
    validPath(zCustomParametersListRunsPath),
    validQuery(zCustomParametersListRunsQuery, "CustomParameters_listRuns"),
    (c) =>
      c.json(list(parameters.listRuns(c.get("principal"), c.req.valid("param").parameter_id, c.req.valid("query")))),
  );

  app.get("/:parameter_id/runs/:run_id", validPath(zCustomParametersReadRunPath), (c) => {
    const { parameter_id, run_id } = c.req.valid("param");
    return c.json(ok(parameters.readRun(c.get("principal"), parameter_id, run_id)));
  });

  return app;
}
