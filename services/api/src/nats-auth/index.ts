export { encodeJwt, formatCreds } from "./jwt.ts";
export {
  apiPermissions,
  assertSubjectToken,
  OWNER_PATTERN,
  ownerPermissions,
  runnerPermissions,
  type OwnerClient,
  type SubjectPermissions,
} from "./permissions.ts";
export {
  assertExtensionId,
  EXTENSION_ID_PATTERN,
  extensionActionSubject,
  extensionConsumerName,
  extensionInboxPrefix,
} from "./extension-consumer.ts";
export {
  createNatsTrust,
  isAccountSeed,
  mintApiUser,
  mintRunnerUser,
  mintUser,
  lockedServerConfig,
  resolverConfig,
  type NatsTrust,
  type UserCredentials,
} from "./trust.ts";
export { keyUserKey, OWNER_LIMITS, OWNER_STREAMS, ownerAccountKey } from "./owner-account.ts";
export { OwnerBus, type OwnerBusOptions, type RevokedKey } from "./owner-bus.ts";
export { apiNatsAuthenticator } from "./api-authenticator.ts";
