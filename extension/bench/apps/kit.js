// Shared by the held-out apps: the state the tasks' checks read, and deterministic fake data.
window.__state = { log: [] };
window.record = (what, detail) => {
  window.__state.log.push(detail === undefined ? what : `${what}:${detail}`);
};
const FIRST = ["Ada", "Ben", "Chloe", "Dev", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kara", "Luca", "Mina", "Nils", "Omar", "Pia", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wes", "Xia", "Yuki", "Zane"];
const LAST = ["Abbott", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ito", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Silva", "Tanaka", "Ueda", "Vogel", "Weber", "Yilmaz", "Zhou"];
window.fakePerson = (i) => `${FIRST[(i * 7) % FIRST.length]} ${LAST[(i * 11) % LAST.length]}`;
window.fakeDate = (i) => {
  const d = new Date(Date.UTC(2026, 10, 27) - i * 86_400_000 * 0.7);
  return d.toISOString().slice(0, 10);
};
window.esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
