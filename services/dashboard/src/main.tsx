import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { schemaCounts } from "@crumbs/agent-sdk/http";
import { ApiResponseError, call, setUnauthorizedHandler, token } from "./api.ts";
import { ErrorBox } from "./components/common.tsx";
import { AgentsPage } from "./pages/agents.tsx";
import { BreadcrumbPage } from "./pages/breadcrumb.tsx";
import { BreadcrumbsPage } from "./pages/breadcrumbs.tsx";
import { EventsPage } from "./pages/events.tsx";
import { KeysPage } from "./pages/keys.tsx";
import { SessionsPage } from "./pages/sessions.tsx";
import { useRoute } from "./router.ts";
import { useTheme } from "./theme.ts";

const NAV = [
  ["breadcrumbs", "Breadcrumbs"],
  ["events", "Live events"],
  ["agents", "Agents"],
  ["sessions", "Sessions"],
  ["keys", "Keys"],
] as const;

function Login({ onLogin }: { onLogin: () => void }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event) => {
    e.preventDefault();
    token.set(value.trim());
    try {
      // Any read proves the token; the schema counts are small.
      await call(schemaCounts());
      onLogin();
    } catch (err) {
      // 403: a valid token without the read scope; the pages it may use still work.
      if (err instanceof ApiResponseError && err.status === 403) return onLogin();
      token.clear();
      setError(err);
    }
  };
  return (
    <main class="login">
      <form onSubmit={submit} class="panel">
        <h1>crumbs</h1>
        <label for="token">API token</label>
        <input id="token" type="password" autoComplete="off" required autoFocus value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        <p class="muted">Kept in this tab's session storage only; it is sent to this API as a bearer token.</p>
        <button type="submit">Log in</button>
        <ErrorBox error={error} />
      </form>
    </main>
  );
}

function App() {
  const route = useRoute();
  const [authed, setAuthed] = useState(() => token.get() !== null);
  const [theme, toggleTheme] = useTheme();
  useEffect(() => setUnauthorizedHandler(() => (token.clear(), setAuthed(false))), []);
  if (!authed) return <Login onLogin={() => setAuthed(true)} />;
  const page = route.page;
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">crumbs</span>
        <nav aria-label="Pages">
          {NAV.map(([id, label]) => (
            <a key={id} href={`#/${id}`} aria-current={page === id ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="spacer" />
        <button type="button" class="ghost" aria-label={`Switch to ${theme === "dark" ? "light" : "dark"} theme`} onClick={toggleTheme}>
          {theme === "dark" ? "Light" : "Dark"}
        </button>
        <button type="button" class="ghost" onClick={() => (token.clear(), setAuthed(false))}>
          Log out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {page === "breadcrumbs" && !route.arg && <BreadcrumbsPage query={route.query} />}
        {page === "breadcrumbs" && route.arg && <BreadcrumbPage id={route.arg} />}
        {page === "events" && <EventsPage />}
        {page === "agents" && <AgentsPage id={route.arg} />}
        {page === "sessions" && <SessionsPage id={route.arg} />}
        {page === "keys" && <KeysPage />}
        {!NAV.some(([id]) => id === page) && <p>No page “{page}”.</p>}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
