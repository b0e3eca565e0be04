export { CrumbsClient, connectNats, type ConnectNatsOptions, type CrumbsClientOptions } from "./client.ts";
export { NatsCredsError } from "./nats-creds.ts";
export { NatsPermissionError, type NatsOperation } from "./nats-permission.ts";
export { connectWithToken, type TokenNats, type TokenNatsOptions } from "./token-nats.ts";
export {
  CrumbsHttp,
  type CallOptions,
  type EventsPage,
  type EventsQuery,
  type HttpOptions,
  type ListQuery,
  type Page,
} from "./http-client.ts";
export type { EventStreamItem, EventStreamQuery } from "./event-stream.ts";
export { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "./errors.ts";
export { subscribeEvents, type SubscribeOptions } from "./subscribe.ts";
export { InterestLease, newHolderId, type InterestHolder, type InterestLeaseOptions } from "./interest-lease.ts";
export { Serial } from "./serial.ts";
export { EventSubscription, type Delivery } from "./event-subscription.ts";
export { handleEvents, type HandleEventsOptions } from "./handle-events.ts";
export { publishReplay, replayEvents, type PublishReplayOptions, type ReplayOptions, type ReplayPublishResult } from "./replay.ts";
export {
  isReplayPrefix,
  openReplayPublisher,
  replayMsgId,
  replaySubject,
  type ReplayedEventFields,
  type ReplayPublishCounts,
  type ReplayPublisher,
} from "./replay-publish.ts";
export { replyTo, respondTo, sessionOf, createOnce } from "./reply.ts";
export { filterSubjectFor, type Selector, type SelectorInput } from "./selector.ts";
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
export {
  type AgentConsumerList,
  type ApiKey,
  type ApiKeyList,
  type LlmView,
  type NatsCredentials,
  type NewApiKey,
  type ParkedOutboxPage,
  type PatchBreadcrumb,
  type ReplayedEvent,
  type SchemaCounts,
} from "./wire.ts";
export { ERROR_CODES, CrumbsError, type ErrorCode, type ErrorDetails, type ErrorIssue } from "@crumbs/schemas";
