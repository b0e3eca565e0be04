/** Who a bearer token is: its own file so the key cache and auth.ts both use it without a cycle. */
export interface Principal {
  owner: string;
  scopes: string[];
  /** Written into created_by / updated_by. */
  actor: string;
  /** The API key's id and expiry; absent for CRUMBS_TOKEN. What it grants (NATS credentials) ends with it. */
  keyId?: string;
  keyExpiresAt?: Date | null;
}
