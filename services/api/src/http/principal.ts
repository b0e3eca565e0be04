/** Who a bearer token is: its own file so the key cache and auth.ts both use it without a cycle. */
export interface Principal {
  owner: string;
  scopes: string[];
  /** Written into created_by / updated_by. */
  actor: string;
}
