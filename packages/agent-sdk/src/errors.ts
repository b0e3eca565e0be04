// The client-side errors live with the contract (@crumbs/schemas), so the extension raises the same
// ones without the SDK; the SDK re-exports them for its users.
export { ApiResponseError, ApiUnreachableError } from "@crumbs/schemas";
