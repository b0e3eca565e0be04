// The client-side errors live with the contract (@crumbs/schemas), so the extension raises the same
// ones without the SDK; the SDK re-exports them for its users. One class per way a call can fail,
// each a CrumbsError (code, message, status, details) like the API's own. A call the caller aborted
// rejects with the signal's reason instead, as fetch does.
export { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "@crumbs/schemas";
