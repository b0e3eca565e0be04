// `@crumbs/runner/testing`: what tests reach for beyond the runner's public face (the root export,
// which is what a program hosting agents and the `crumbs` CLI use): the list of variables the config
// reads, checked against .env.example and the compose files.
export { RUNNER_ENV_VARS } from "./config.ts";
