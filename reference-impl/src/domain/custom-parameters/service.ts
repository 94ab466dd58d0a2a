// Custom parameters: the rules of the group in one place, called by the REST
// resource (and any other adapter) with the caller. Names are unique per
// account compared trimmed and case-folded (D-CP-NAME); the account holds at
// most PARAMETER_CEILING live parameters (D-REF-CP-LIMIT); PATCH changes name
// and instructions only (D-CP-PATCH); delete is soft and takes the runs and
// the stored values with it (D-CP-DELETE). Runs live in ./runs.ts.
import type * as z from "zod";
import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterPreview,
  CustomParametersCustomParameterRun,
} from "../../../../generated/client/types.gen.ts";
import type {
  zCustomParametersCreateBody,
  zCustomParametersCreateRunBody,
  zCustomParametersPreviewBody,
  zCustomParametersUpdateBody,
} from "../../../../generated/client/zod.gen.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { PageResult } from "../../platform/pagination.ts";
import type { MentionPools } from "../mentions/pool.ts";
import { mentionKey } from "../mentions/record.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Table } from "../../platform/store.ts";
import type { DatasetService } from "../datasets/service.ts";
import { compileInstructions } from "./extractor.ts";
import { parameterRunView, parameterView, type ListRequest, type ParameterRow } from "./rows.ts";
import { ParameterRuns, type ParameterRunNeeds } from "./runs.ts";
import type { Caller } from "../../platform/env.ts";

export type CreateBody = z.output<typeof zCustomParametersCreateBody>;
export type UpdateBody = z.output<typeof zCustomParametersUpdateBody>;
export type PreviewBody = z.output<typeof zCustomParametersPreviewBody>;
export type CreateRunBody = z.output<typeof zCustomParametersCreateRunBody>;

/** Parameters are shared by every seat of the account: only the caller's account is read. */
export type ParameterCaller = Pick<Caller, "account">;

/**
 * D-REF-CP-LIMIT: live custom parameters per account in the reference. The
 * contract fixes no number; deleted parameters free their slot.
 */
export const PARAMETER_CEILING = 100;

/** The form two names are compared in (D-CP-NAME). */
export function nameKey(name: string): string {
  return name.normalize("NFC").trim().toLowerCase();
}

/** What the custom parameter service needs from the composition root (compose.ts). */
export type CustomParameterNeeds = ParameterRunNeeds &
  MentionPools & {
    readonly clock: Clock;
    readonly datasets: Pick<DatasetService, "lookup">;
    readonly tables: { readonly customParameters: Table<ParameterRow> };
  };

export class CustomParameterService {
  readonly runs: ParameterRuns;

  constructor(private readonly services: CustomParameterNeeds) {
    this.runs = new ParameterRuns(services);
  }

  private get parameters() {
    return this.services.tables.customParameters;
  }

  create(caller: ParameterCaller, body: CreateBody): CustomParametersCustomParameter {
    const accountId = caller.account.id;
    this.checkName(accountId, body.name, null);
    const live = this.parameters.live(accountId).length;
    if (live >= PARAMETER_CEILING) {
      throw new ConflictError(
        "custom_parameter_limit_exceeded",
        `The account already holds ${live} custom parameters, the ceiling is ${PARAMETER_CEILING}; delete one first.`,
      );
    }
    const now = this.services.clock.now();
    const row = this.parameters.insert({
      id: newId("cp_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      name: body.name,
      instructions: body.instructions,
      value_type: body.value_type,
    });
    return parameterView(row);
  }

  list(caller: ParameterCaller, request: ListRequest): PageResult<CustomParametersCustomParameter> {
    const page = this.parameters.page(caller.account.id, {
      ...request,
      scope: { r: "custom_parameters", order: request.order },
    });
    return { ...page, items: page.items.map(parameterView) };
  }

  read(caller: ParameterCaller, parameterId: string): CustomParametersCustomParameter {
    return parameterView(this.find(caller.account.id, parameterId));
  }

  update(caller: ParameterCaller, parameterId: string, body: UpdateBody): CustomParametersCustomParameter {
    const row = this.find(caller.account.id, parameterId);
    if (body.name !== undefined) this.checkName(row.account_id, body.name, row.id);
    // An empty body is a no-op: nothing changes, not even updated_at.
    if (body.name === undefined && body.instructions === undefined) return parameterView(row);
    if (body.name !== undefined) row.name = body.name;
    if (body.instructions !== undefined) row.instructions = body.instructions;
    row.updated_ms = this.services.clock.now();
    return parameterView(row);
  }

  delete(caller: ParameterCaller, parameterId: string): void {
    const row = this.find(caller.account.id, parameterId);
    const now = this.services.clock.now();
    this.parameters.softDelete(row, now);
    this.runs.deleteFor(row, now);
  }

  /** Free: reads the posts the account holds; a ref it does not hold gives null (D-CP-PREVIEW-MISS). */
  preview(caller: ParameterCaller, body: PreviewBody): CustomParametersCustomParameterPreview {
    const accountId = caller.account.id;
    const extractor = compileInstructions(body.instructions, body.value_type);
    const pool = this.services.mentions(accountId);
    const results = body.post_refs.map((ref) => {
      const record = pool.get(mentionKey(ref.source, ref.id));
      const visible = record && [...record.datasets.keys()].some((id) => this.services.datasets.lookup(accountId, id));
      if (!record || !visible) return { post_id: ref.id, source: ref.source, value: null };
      const result = extractor.extract({ ...record.post, metrics: record.metrics });
      return { post_id: ref.id, source: ref.source, value: result.ok ? result.value : null };
    });
    return { results };
  }

  createRun(caller: ParameterCaller, parameterId: string, body: CreateRunBody): { run_id: string } {
    const parameter = this.find(caller.account.id, parameterId);
    return { run_id: this.runs.create(parameter, body.scope.id).id };
  }

  listRuns(
    caller: ParameterCaller,
    parameterId: string,
    request: ListRequest,
  ): PageResult<CustomParametersCustomParameterRun> {
    const parameter = this.find(caller.account.id, parameterId);
    const page = this.runs.list(parameter, request);
    return { ...page, items: page.items.map(parameterRunView) };
  }

  readRun(caller: ParameterCaller, parameterId: string, runId: string): CustomParametersCustomParameterRun {
    const parameter = this.find(caller.account.id, parameterId);
    return parameterRunView(this.runs.find(parameter, runId));
  }

  private find(accountId: string, parameterId: string): ParameterRow {
    const row = this.parameters.get(accountId, parameterId);
    if (!row) throw new NotFoundError("custom_parameter_not_found", `Custom parameter ${parameterId} was not found.`);
    return row;
  }

  /** Blank is 400; a clash with another live parameter of the account is 409. */
  private checkName(accountId: string, name: string, selfId: string | null): void {
    if (name.trim() === "") {
      throw new BadRequestError(
        "custom_parameter_empty_name",
        "The custom parameter name must contain at least one non-blank character.",
      );
    }
    const key = nameKey(name);
    const clash = this.parameters.live(accountId, (r) => r.id !== selfId && nameKey(r.name) === key)[0];
    if (clash) {
      throw new ConflictError(
        "custom_parameter_duplicate_name",
        `A custom parameter named '${clash.name}' already exists (${clash.id}).`,
      );
    }
  }
}
