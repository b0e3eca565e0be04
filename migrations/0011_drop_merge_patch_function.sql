-- A merge-patch PATCH stores the context merged by the contract's applyMergePatch (the API checks
-- it against its schema and names the changed keys from that merge; the UPDATE's version check
-- makes its base exact), so the SQL copy of the rule from 0010 has no caller left.
DROP FUNCTION IF EXISTS crumbs_merge_patch(jsonb, jsonb);
