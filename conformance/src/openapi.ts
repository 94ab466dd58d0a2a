// The parts of an OpenAPI 3.1 document the kit reads, typed. The document is
// the generated contract (generated/openapi.json) or a frozen release of it;
// the kit trusts its shape as far as these types go and reads anything else
// (vendor extensions, rarely used keywords) as `unknown`.

/** A node that may be a `$ref` to another part of the document (Contract.deref follows it). */
export interface Refable {
  $ref?: string;
}

/** A JSON Schema of the contract, as far as the kit reads one. */
export interface JsonSchema extends Refable {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  discriminator?: { propertyName?: string; mapping?: Record<string, string> };
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  [keyword: string]: unknown;
}

export interface ExampleObject {
  summary?: string;
  value?: unknown;
}

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface ResponseObject extends Refable {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaTypeObject>;
}

/** `name` and `in` are required by OpenAPI; a `$ref` parameter has them once dereferenced. */
export interface ParameterObject extends Refable {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export interface RequestBodyObject extends Refable {
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses?: Record<string, ResponseObject>;
  security?: unknown[];
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & { parameters?: ParameterObject[] };

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, ResponseObject>;
    securitySchemes?: Record<string, unknown>;
  };
  security?: unknown[];
}
