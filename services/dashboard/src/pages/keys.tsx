import { useState } from "preact/hooks";
import { createKey, listKeys, revokeKey } from "@crumbs/agent-sdk/http";
import { call } from "../api.ts";
import { ErrorBox, Time, useLoad } from "../components/common.tsx";

interface Key {
  id: string;
  owner: string;
  name: string | null;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const SCOPES = ["read", "write", "subscribe", "admin"] as const;

export function KeysPage() {
  const keys = useLoad(() => call<{ items: Key[] }>(listKeys()), []);
  const [name, setName] = useState("");
  const [owner, setOwner] = useState("");
  const [expires, setExpires] = useState("");
  const [scopes, setScopes] = useState<(typeof SCOPES)[number][]>(["read"]);
  const [created, setCreated] = useState<(Key & { token: string }) | undefined>();
  const [error, setError] = useState<unknown>();

  const create = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = { scopes, ...(name ? { name } : {}), ...(owner ? { owner } : {}), ...(expires ? { expires_in: expires } : {}) };
      setCreated(await call<Key & { token: string }>(createKey(body)));
      setName("");
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  const revoke = async (k: Key) => {
    if (!confirm(`Revoke key ${k.name ?? k.id}? Requests with it will fail from now on.`)) return;
    setError(undefined);
    try {
      await call(revokeKey(k.id));
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div>
      <h1>API keys</h1>
      <ErrorBox error={keys.error} />
      <form class="panel filters" onSubmit={create} aria-label="Create a key">
        <label>
          Name <input value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="ci-reader" />
        </label>
        <label>
          Owner <input value={owner} onInput={(e) => setOwner(e.currentTarget.value)} placeholder="(yours)" />
        </label>
        <label>
          Expires in <input value={expires} onInput={(e) => setExpires(e.currentTarget.value)} placeholder="30d, 12h (empty: never)" />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s} class="check">
              <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))} /> {s}
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" disabled={!scopes.length}>
            Create key
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
      {created && (
        <div class="panel once" role="status">
          <p>
            Token of <strong>{created.name ?? created.id}</strong>, shown this once (only its hash is stored):
          </p>
          <code class="token" data-testid="new-token">
            {created.token}
          </code>{" "}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
            Copy
          </button>{" "}
          <button type="button" class="ghost" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      <table class="list" aria-label="Keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Owner</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.items.map((k) => (
            <tr key={k.id}>
              <td>{k.name ?? <span class="mono muted">{k.id}</span>}</td>
              <td>{k.owner}</td>
              <td class="mono">{k.scopes.join(" ")}</td>
              <td>
                <Time at={k.created_at} />
              </td>
              <td>{k.expires_at ? <Time at={k.expires_at} /> : <span class="muted">never</span>}</td>
              <td>{k.revoked_at ? <span class="error-text">revoked</span> : "active"}</td>
              <td>
                {!k.revoked_at && (
                  <button type="button" class="ghost" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name ?? k.id}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
