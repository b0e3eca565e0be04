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
  EXTENSION_STREAM,
  extensionActionSubject,
  extensionConsumerName,
  extensionInboxPrefix,
} from "./extension-consumer.ts";
export { createNatsTrust, isAccountSeed, mintApiUser, mintRunnerUser, mintUser, type NatsTrust, type UserCredentials } from "./trust.ts";
export { apiNatsAuthenticator } from "./api-authenticator.ts";
