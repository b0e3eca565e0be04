export { CrumbsClient, connectNats, type ConnectNatsOptions, type CrumbsClientOptions } from "./client.ts";
export { NatsCredsError, natsCredsAuthenticator, readNatsCreds } from "./nats-creds.ts";
export { CrumbsHttp, type HttpOptions, type ListQuery, type EventsQuery } from "./http-client.ts";
export { ApiResponseError, ApiUnreachableError } from "./errors.ts";
export {
  subscribeEvents,
  STREAM,
  type EventHandler,
  type DeliveryInfo,
  type SubscribeOptions,
  type Subscription,
} from "./subscribe.ts";
export { replayEvents, type ReplayOptions } from "./replay.ts";
export { fullEvent, type ReferenceHttp } from "./reference.ts";
export { replyTo, respondTo, replyKey, sessionOf, createOnce } from "./reply.ts";
export {
  selectorMatcher,
  filterSubjectFor,
  type Selector,
  type SelectorInput,
  type EventKind,
} from "./selector.ts";
export { coveringSubject, subjectMatches } from "./filter-subject.ts";
export {
  breadcrumbSchema,
  breadcrumbEventSchema,
  createBreadcrumbSchema,
  patchBreadcrumbSchema,
  llmViewSchema,
  type Breadcrumb,
  type BreadcrumbEvent,
  type CreateBreadcrumb,
  type PatchBreadcrumb,
  type HistoryItem,
  type LlmView,
} from "./wire.ts";
