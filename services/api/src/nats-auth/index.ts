export { encodeJwt, formatCreds } from "./jwt.ts";
export { apiPermissions, assertSubjectToken, OWNER_PATTERN, ownerPermissions, runnerPermissions, type SubjectPermissions } from "./permissions.ts";
export { createNatsTrust, isAccountSeed, mintApiUser, mintRunnerUser, mintUser, type NatsTrust, type UserCredentials } from "./trust.ts";
export { apiNatsAuthenticator } from "./api-authenticator.ts";
