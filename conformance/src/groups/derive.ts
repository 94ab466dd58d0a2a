// Derivations from the contract: what the OpenAPI document already says about
// a group, so descriptors do not restate it.
import type { Contract, JsonSchema, Operation } from "../contract.ts";
import type { Group, GroupSpec, RunKind } from "./types.ts";

/** The `error_code` values a documented response body may carry (its schema's enum, through refs and unions). */
export function errorCodes(contract: Contract, op: Operation | undefined, status: string): string[] {
  if (!op) return [];
  const raw = contract.deref(op.responsesRaw?.[status] ?? {})?.content?.["application/json"]?.schema;
  if (!raw) return [];
  const out = new Set<string>();
  const visit = (node: JsonSchema | undefined, depth: number) => {
    if (!node || depth > 6) return;
    const n = contract.deref(node);
    for (const alt of [...(n.anyOf ?? []), ...(n.oneOf ?? []), ...(n.allOf ?? [])]) visit(alt, depth + 1);
    const code = n.properties?.error_code ? contract.deref(n.properties.error_code) : undefined;
    for (const v of code?.enum ?? []) if (typeof v === "string") out.add(v);
  };
  visit(raw, 0);
  return [...out];
}

/** The documented id prefix of a response's resource: "Opaque id with the `ds_` prefix." in the id's description. */
export function idPrefixOf(contract: Contract, op: Operation | undefined, status = "200"): string | undefined {
  const schema = responseSchema(contract, op, status);
  const data = schema?.properties?.data ? contract.resolve(schema.properties.data) : schema;
  const desc = data?.properties?.id?.description ?? data?.properties?.run_id?.description ?? "";
  return /`([a-z]+_)`/.exec(desc)?.[1];
}

/** The JSON body schema of one documented response, resolved (refs followed, allOf merged). */
export function responseSchema(contract: Contract, op: Operation | undefined, status: string): JsonSchema | undefined {
  const raw = op ? contract.deref(op.responsesRaw?.[status] ?? {})?.content?.["application/json"]?.schema : undefined;
  return raw ? contract.resolve(raw) : undefined;
}

/** State enum and step names of a run read: `status.type` enum or `status` enum, and `status.steps[].name` enum. */
export function runShape(
  contract: Contract,
  op: Operation | undefined,
  statusAt: "status.type" | "status",
): { statusEnum: string[]; steps: string[] } {
  const schema = responseSchema(contract, op, "200") ?? responseSchema(contract, op, "202");
  const data = schema?.properties?.data ?? schema;
  const status = data?.properties?.status;
  const pickEnum = (n: JsonSchema | undefined): string[] =>
    n?.enum ? n.enum.map(String) : (n?.anyOf ?? n?.oneOf ?? []).flatMap(pickEnum);
  const statusEnum = statusAt === "status" ? pickEnum(status) : pickEnum(status?.properties?.type);
  const steps = pickEnum(status?.properties?.steps?.items?.properties?.name);
  return { statusEnum, steps };
}

/** Fill a descriptor from the contract (after any `--operations` scoping). */
export function describe(spec: GroupSpec, contract: Contract): Group {
  const all = contract.operations.filter((o) => o.path === spec.base || o.path.startsWith(spec.base + "/"));
  const itemPath = all.find((o) => o.method === "GET" && /^\/\{[^}/]+\}$/.test(o.path.slice(spec.base.length)))?.path;
  const create = contract.op(`POST ${spec.base}`);
  const read = itemPath ? contract.op(`GET ${itemPath}`) : undefined;
  const { run: _spec, ...rest } = spec;
  const group: Group = {
    ...rest,
    ops: {
      create,
      read,
      list: contract.op(`GET ${spec.base}`),
      update: itemPath ? contract.op(`PATCH ${itemPath}`) : undefined,
      delete: itemPath ? contract.op(`DELETE ${itemPath}`) : undefined,
      all,
    },
    itemParam: itemPath ? /\{([^}]+)\}$/.exec(itemPath)?.[1] : undefined,
    idPrefix: idPrefixOf(contract, read) ?? idPrefixOf(contract, create, "201"),
    notFound: errorCodes(contract, read, "404"),
    codes402: [...new Set(all.flatMap((o) => errorCodes(contract, o, "402")))],
    served: all.length > 0,
  };
  if (spec.run) {
    const createOp = contract.op(spec.run.create);
    const readOp = spec.run.read ? contract.op(spec.run.read) : undefined;
    const createStatus = createOp ? [202, 201, 200].find((s) => createOp.responses.has(String(s))) : undefined;
    const shape = runShape(contract, readOp ?? createOp, spec.run.statusAt);
    const run: RunKind = {
      ...spec.run,
      createOp,
      readOp,
      listOp: spec.run.list ? contract.op(spec.run.list) : undefined,
      statusEnum: shape.statusEnum,
      terminal: [spec.run.states.completed, spec.run.states.failed],
      steps: shape.steps,
      idPrefix: idPrefixOf(contract, readOp) ?? idPrefixOf(contract, createOp, String(createStatus ?? 202)),
      createStatus,
      code402: errorCodes(contract, createOp, "402")[0],
      notFound: errorCodes(contract, readOp, "404"),
    };
    group.run = run;
  }
  return group;
}
