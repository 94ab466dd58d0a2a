// The error catalogue is read from the contract: each code has one status and
// the transient flag the contract fixes, and the request guard every test
// uses rejects a code an operation does not document.
import { describe, expect, it } from "vitest";
import { documentedErrors, errorCatalogue, errorSpec } from "../src/platform/error-catalogue.ts";
import { ApiError, NotFoundError } from "../src/platform/errors.ts";
import { assertDocumentedError, operationOf } from "./contract-guard.ts";

describe("error catalogue", () => {
  it("derives status and transient from the contract, not the throw site", () => {
    expect(errorSpec("dataset_not_found")).toEqual({ status: 404, transient: false });
    expect(errorSpec("audience_dataset_run_already_in_flight")).toEqual({ status: 409, transient: false });
    expect(errorSpec("insufficient_credits_ask")).toEqual({ status: 402, transient: false });
    expect(errorSpec("too_many_requests")).toEqual({ status: 429, transient: true });
    expect(errorSpec("ai_assistant_unavailable")).toEqual({ status: 503, transient: true });
    expect(errorSpec("ai_assistant_timeout")).toEqual({ status: 504, transient: true });
    expect(errorSpec("date_filter_unavailable").status).toBe(422);
    const e = new ApiError("custom_parameter_run_in_flight", "busy");
    expect([e.status, e.transient]).toEqual([409, false]);
    expect(new NotFoundError("chat_not_found", "x").status).toBe(404);
  });

  it("knows every code of the contract's ErrorCode union with exactly one status", () => {
    const codes = [...errorCatalogue().keys()];
    expect(codes.length).toBeGreaterThanOrEqual(35);
    for (const code of codes) expect(errorCatalogue().get(code)!.status).toBeGreaterThanOrEqual(400);
  });

  it("lists per operation which codes it documents", () => {
    expect(documentedErrors("Datasets_read").get("dataset_not_found")).toBe(404);
    expect(documentedErrors("Datasets_read").has("chat_not_found")).toBe(false);
  });

  it("the request guard maps paths to operations and refuses undocumented pairs", () => {
    expect(operationOf("GET", "/v1/datasets/ds_1")).toBe("Datasets_read");
    expect(operationOf("GET", "/v1/datasets?limit=2")).toBe("Datasets_list");
    expect(() =>
      assertDocumentedError("GET", "/v1/datasets/ds_1", 404, { error_code: "dataset_not_found" }),
    ).not.toThrow();
    expect(() => assertDocumentedError("GET", "/v1/datasets/ds_1", 409, { error_code: "dataset_not_found" })).toThrow(
      /documents/,
    );
    expect(() => assertDocumentedError("GET", "/v1/datasets/ds_1", 404, { error_code: "chat_not_found" })).toThrow(
      /no such code/,
    );
  });
});
