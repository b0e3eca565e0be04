import { it } from "vitest";

// Its assertion sits in a callback that never runs: with expect.requireAssertions it fails.
it("asserts only inside a callback nobody calls", () => {
  const never: Array<() => void> = [];
  for (const check of never) check();
});
