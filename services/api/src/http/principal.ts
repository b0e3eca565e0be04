/** Who a bearer token is: its own file so the key cache and auth.ts both use it without a cycle. */
export interface Principal {
  owner: string;
  scopes: string[];
  /** Written into created_by / updated_by. */
  actor: string;
  /** The API key behind the token (absent for CRUMBS_TOKEN): what a key it creates records as its creator. */
  keyId?: string;
  /** When that key expires (null: never): a key it creates expires no later. */
  expiresAt?: Date | null;
}
