import { describe, expect, it } from "vitest";
import { ApiResponseError, ApiUnreachableError } from "./api-errors.ts";
import { CrumbsError } from "./errors.ts";

describe("ApiResponseError", () => {
  it("reads the API's JSON error shape: code, message, status and details", async () => {
    const body = { error: "version_mismatch", message: "stale", details: { current_version: 3 } };
    const e = await ApiResponseError.fromResponse(new Response(JSON.stringify(body), { status: 412 }));
    expect(e).toBeInstanceOf(CrumbsError);
    expect(e).toMatchObject({ code: "version_mismatch", message: "stale", status: 412, details: { current_version: 3 } });
    expect(e.toJSON()).toEqual(body);
  });

  it("names an answer that is not the error shape by its status, with the start of its text", () => {
    expect(ApiResponseError.fromBody(502, "<html>Bad gateway</html>")).toMatchObject({ code: "unavailable", status: 502, message: "<html>Bad gateway</html>" });
    expect(ApiResponseError.fromBody(400, "", "Bad Request")).toMatchObject({ code: "http_error", message: "Bad Request" });
    expect(ApiResponseError.fromBody(404, JSON.stringify({ error: "not_found" }))).toMatchObject({ code: "not_found", message: "not_found" });
  });
});

describe("ApiUnreachableError", () => {
  it("is a CrumbsError with its own code, keeping the cause", () => {
    const cause = new Error("ECONNREFUSED");
    const e = new ApiUnreachableError("the API at http://x is unreachable", { cause });
    expect(e).toBeInstanceOf(CrumbsError);
    expect(e).toMatchObject({ code: "api_unreachable", status: 503, cause });
  });
});
