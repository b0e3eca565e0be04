import { OWNER_PATTERN } from "@crumbs/schemas";

export { OWNER_PATTERN };

/**
 * Owner names become one NATS subject token (`crumbs.<owner>.>`): a dot, a
 * wildcard or whitespace in one would widen every permission built from it.
 */
export function assertSubjectToken(owner: string): string {
  if (!OWNER_PATTERN.test(owner)) throw new Error(`owner "${owner}" is not a valid subject token`);
  return owner;
}
