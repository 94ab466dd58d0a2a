// Request validation with the GENERATED zod schemas only. Middleware
// factories for body, query and path put the parsed value where
// `c.req.valid(target)` finds it; failures become the 422 validation body.
import type { MiddlewareHandler } from "hono";
import type * as z from "zod";
import { BodyAbortedError } from "./body-guards.ts";
import { ValidationFailed } from "./errors.ts";
import { coerceQuery, queryParamTypes } from "./query-coercion.ts";
import type { AppEnv } from "./env.ts";
import type { CommonValidationIssue } from "../../../generated/client/types.gen.ts";

type Where = "body" | "query" | "path";

type Issue = z.core.$ZodIssue;

/** An issue of a branch, with the union's own path in front when zod left it out. */
function under(prefix: PropertyKey[], issue: Issue): Issue {
  const prefixed = prefix.every((p, i) => issue.path[i] === p);
  return prefixed ? issue : { ...issue, path: [...prefix, ...issue.path] };
}

/** A single-literal `invalid_value` (such as `type: "url"` sent to the `prompt` shape): that branch was not meant. */
const tagMismatch = (issue: Issue) => issue.code === "invalid_value" && issue.values.length === 1;

/**
 * The issues a client can act on. A union that failed as a whole (the
 * preview body, the tracking agent schedule) is reported through its closest
 * branch: the one whose tag matched, then the one with the fewest problems,
 * so `loc` names the broken field instead of stopping at the union.
 */
function actionable(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
  const branches = issue.errors.map((branch) => branch.flatMap((i) => actionable(under(issue.path, i))));
  const cost = (b: Issue[]) => b.filter(tagMismatch).length * 1000 + b.length;
  const best = branches.reduce((a, b) => (cost(b) < cost(a) ? b : a));
  return best.length ? best : [issue];
}

export function toIssues(where: Where, error: z.ZodError): CommonValidationIssue[] {
  return error.issues.flatMap(actionable).map((issue) => {
    const missing = issue.code === "invalid_type" && /received undefined$/.test(issue.message);
    return {
      loc: [where, ...issue.path.map((p) => String(p))],
      msg: issue.message,
      type: missing ? "missing" : issue.code,
    };
  });
}

export function parseWith<S extends z.ZodType>(schema: S, where: Where, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationFailed(toIssues(where, result.error));
  return result.data;
}

export interface BodyOptions {
  /** Value used when the request has no body at all (default: missing). */
  whenEmpty?: unknown;
}

async function readJson(text: string, options: BodyOptions): Promise<unknown> {
  if (text.trim() === "") return options.whenEmpty;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationFailed([
      { loc: ["body"], msg: `Malformed JSON: ${(error as Error).message}`, type: "json_invalid" },
    ]);
  }
}

/** The body as text; a client that goes away mid-body is a 400, not a 500 with a stack. */
async function bodyText(req: { text(): Promise<string> }): Promise<string> {
  try {
    return await req.text();
  } catch {
    throw new BodyAbortedError();
  }
}

export function validBody<S extends z.ZodType>(
  schema: S,
  options: BodyOptions = {},
): MiddlewareHandler<AppEnv, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async function validateBody(c, next) {
    const raw = await readJson(await bodyText(c.req), options);
    c.req.addValidatedData("json", parseWith(schema, "body", raw) as object);
    await next();
  };
}

export function validQuery<S extends z.ZodType>(
  schema: S,
  operationId: string,
): MiddlewareHandler<AppEnv, string, { in: { query: Record<string, string> }; out: { query: z.output<S> } }> {
  const types = queryParamTypes(operationId);
  return function validateQuery(c, next) {
    const coerced = coerceQuery(c.req.queries() as Record<string, string[]>, types);
    c.req.addValidatedData("query", parseWith(schema, "query", coerced) as object);
    return next();
  };
}

export function validPath<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<AppEnv, string, { in: { param: Record<string, string> }; out: { param: z.output<S> } }> {
  // Not async (one async frame less per request); a throw still
  // reaches onError through Hono's compose.
  return function validatePath(c, next) {
    c.req.addValidatedData("param", parseWith(schema, "path", c.req.param()) as object);
    return next();
  };
}
