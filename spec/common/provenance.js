// Implementation of the provenance decorators declared in provenance.tsp.
// Each mark is appended to the element's `x-provenance` extension, so the
// OpenAPI emitter writes it next to the constraint it explains and the
// conformance kit reads it from the same generated document as the schemas.
import { getExtensions, setExtension } from "@typespec/openapi";

const KEY = "x-provenance";
const KINDS = new Set(["required", "type", "nullable", "format", "pattern", "bounds", "enum", "min", "max"]);
/** On an operation: the error codes it documents (`errors`), or those of one status (`errors:404`). */
const OPERATION_KIND = /^errors(:\d{3})?$/;

function report(program, target, message) {
  program.reportDiagnostic({ code: "provenance-invalid", severity: "error", message, target });
}

/** Append one mark (several decorators may mark the same element). */
function mark(context, target, entry, kinds) {
  const operation = target.kind === "Operation";
  if (operation && !kinds.length)
    report(context.program, target, 'a mark on an operation names "errors" or "errors:<status>"');
  const unknown = kinds.filter((k) => (operation ? !OPERATION_KIND.test(k) : !KINDS.has(k)));
  if (unknown.length) report(context.program, target, `unknown constraint kind(s): ${unknown.join(", ")}`);
  const previous = getExtensions(context.program, target).get(KEY) ?? [];
  setExtension(context.program, target, KEY, [...previous, kinds.length ? { ...entry, kinds } : entry]);
}

export const $decorators = {
  "SocialListening.Common": {
    seed(context, target, quote, ...kinds) {
      if (!quote.trim()) report(context.program, target, "@seed needs the seed's words");
      mark(context, target, { seed: quote }, kinds);
    },
    decided(context, target, id, ...kinds) {
      if (!/^D-[A-Z0-9-]+$/.test(id)) report(context.program, target, `@decided needs a D- id, got "${id}"`);
      mark(context, target, { decision: id }, kinds);
    },
  },
};
