import { expect, it } from "vitest";

let attempts = 0;

it("fails once and passes on its retry", { retry: 1 }, () => {
  attempts += 1;
  expect(attempts).toBe(2);
});

it("passes first time", () => {
  expect(1).toBe(1);
});
