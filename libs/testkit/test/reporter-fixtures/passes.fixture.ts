import { expect, it } from "vitest";

it("one", () => expect(1 + 1).toBe(2));
it("two", () => expect("a").toBe("a"));
