import type { z } from "zod";
import type {
  actionResultContextSchema,
  agentDefContextSchema,
  agentResponseContextSchema,
  browserActionContextSchema,
  chatMessageContextSchema,
  pageContextSchema,
  schemaDefContextSchema,
  taskCancelContextSchema,
  taskContextSchema,
  interestContextSchema,
} from "@crumbs/schemas";
import type { CreateBody, WireBreadcrumb, WireEvent } from "./wire.ts";

/** The known schemas (the API validates their contexts on write), from @crumbs/schemas. */
interface KnownSchemas {
  "browser.page.context.v1": typeof pageContextSchema;
  "browser.action.v1": typeof browserActionContextSchema;
  "browser.action.result.v1": typeof actionResultContextSchema;
  "browser.task.cancel.v1": typeof taskCancelContextSchema;
  "browser.task.v1": typeof taskContextSchema;
  "browser.context.interest.v1": typeof interestContextSchema;
  "agent.def.v1": typeof agentDefContextSchema;
  "agent.response.v1": typeof agentResponseContextSchema;
  "chat.message.v1": typeof chatMessageContextSchema;
  "schema.def.v1": typeof schemaDefContextSchema;
}
export type KnownSchemaName = keyof KnownSchemas;
/** Each known schema's context as stored and read. */
export type KnownContexts = { [K in KnownSchemaName]: z.output<KnownSchemas[K]> };

/** A known schema's context type; any other schema's context is a JSON object. */
export type ContextOf<S extends string> = S extends KnownSchemaName ? KnownContexts[S] : Record<string, unknown>;
/** What a create body's context may be: a known schema's input (defaults may be left out). */
export type ContextInput<S extends string> = S extends KnownSchemaName ? z.input<KnownSchemas[S]> : Record<string, unknown>;

/**
 * A breadcrumb whose context is typed by its schema when the schema is known at compile time
 * (`Breadcrumb<"chat.message.v1">`), a JSON object otherwise (`Breadcrumb`).
 */
export type Breadcrumb<S extends string = string> = Omit<WireBreadcrumb, "schema_name" | "context"> & {
  schema_name: S;
  context: ContextOf<S>;
};

export type BreadcrumbEvent<S extends string = string> = Omit<WireEvent, "schema_name" | "breadcrumb"> & {
  schema_name: S;
  breadcrumb: Breadcrumb<S>;
};

/** One version of a breadcrumb from its history. */
export type HistoryItem<S extends string = string> = Breadcrumb<S> & { seq: number; event: "created" | "updated" | "deleted" };

/** A create body; with a known schema_name its context must have that schema's type. */
export type CreateBreadcrumb<S extends string = string> = Omit<CreateBody, "schema_name" | "context"> & {
  schema_name: S;
  context: ContextInput<S>;
};

/** Narrows a breadcrumb (or an event's breadcrumb) to a known schema, so its context is typed. */
export function hasSchema<S extends KnownSchemaName>(b: Breadcrumb, schemaName: S): b is Breadcrumb<S> {
  return b.schema_name === schemaName;
}
