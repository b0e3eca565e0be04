import { expect, it } from "vitest";
// The module is missing on purpose, so the file fails to load.
import "./no-such-module.ts";

it("never collected", () => expect(1).toBe(1));
