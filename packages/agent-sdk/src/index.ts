export { CrumbsClient, connectNats, type ConnectNatsOptions, type CrumbsClientOptions } from "./client.ts";
export { NatsCredsError, natsCredsAuthenticator, readNatsCreds } from "./nats-creds.ts";
export {
  CrumbsHttp,
  type CallOptions,
  type EventsPage,
  type EventsQuery,
  type HttpOptions,
  type ListQuery,
  type Page,
} from "./http-client.ts";
export { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "./errors.ts";
export { subscribeEvents, STREAM, type SubscribeOptions } from "./subscribe.ts";
export { EventSubscription, handleEvents, type Delivery } from "./event-subscription.ts";
export { replayEvents, type ReplayOptions } from "./replay.ts";
export { fullEvent, type ReferenceHttp } from "./reference.ts";
export { replyTo, respondTo, replyKey, sessionOf, createOnce } from "./reply.ts";
export { selectorMatcher, filterSubjectFor, type Selector, type SelectorInput, type EventKind } from "./selector.ts";
export { coveringSubject, subjectMatches } from "./filter-subject.ts";
export {
  hasSchema,
  type Breadcrumb,
  type BreadcrumbEvent,
  type ContextOf,
  type CreateBreadcrumb,
  type HistoryItem,
  type KnownContexts,
  type KnownSchemaName,
} from "./known.ts";
export { breadcrumbSchema, breadcrumbEventSchema, llmViewSchema, type LlmView, type PatchBreadcrumb } from "./wire.ts";
export { ERROR_CODES, CrumbsError, type ErrorCode, type ErrorDetails, type ErrorIssue } from "@crumbs/schemas";
