// Limits of every regex crumbs runs on untrusted input (selectors' `matches`, role selectors' `nameMode:
// "regex"`): one definition, light, so a schema can refuse a pattern that is too long before any engine
// sees it. The engine itself (RE2 semantics, linear time) is `selector/regex.ts`.

export const MAX_REGEX_LENGTH = 512;
export const ALLOWED_REGEX_FLAGS = /^[imsu]*$/;
