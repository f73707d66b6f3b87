/*
 * 95_names (issue 34, sections 1 and 2): import() records the role whose
 * rights are acting, not the outer one.  pgbenchx.caller_role(), which
 * read the role outside every SECURITY DEFINER function, goes: import() is
 * now in C and passes that role to the new internal import_as(doc,
 * importer).  The name guard (its check, name_collisions, and its event
 * trigger) comes with the routines that follow.
 */
DROP FUNCTION pgbenchx.caller_role();
