/*
 * script_mem.h -- the memory and interrupt hooks of the language core.
 *
 * Owns: how script.c and expr.c allocate (script_mem_*) and when their
 * parsers stop early (script_poll_interrupt).  Both files include this
 * header and neither includes the other's implementation for it, so the
 * core has no cycle: expr.c knows nothing of scripts.
 *
 * Standalone (test/unit, test/fuzz) the hooks are libc's malloc, realloc
 * and free.  In the server, script_sql_install_hooks (script_sql.c) puts
 * them in the memory context current at the time of the call, so what a
 * parse builds is released with that context, also when an error cuts it
 * short.
 *
 * Must not: include PostgreSQL headers.
 */
#ifndef PGBENCHX_SCRIPT_MEM_H
#define PGBENCHX_SCRIPT_MEM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ScriptAllocHooks
{
	void	   *(*malloc_fn) (size_t size);
	void	   *(*realloc_fn) (void *ptr, size_t size);
	void		(*free_fn) (void *ptr);
} ScriptAllocHooks;

/* Install hooks (NULL restores libc).  Call before parsing anything. */
extern void script_set_alloc_hooks(const ScriptAllocHooks *hooks);

/*
 * Interrupt hook: parsing (script.c, expr.c) calls it now and then (about
 * every 1024 characters or expression nodes); when it returns true, parsing
 * stops, frees what it built and script_parse fails with
 * SCRIPT_ERR_INTERRUPTED.  The server's hook says whether a cancel or a
 * termination is pending, and the caller then calls CHECK_FOR_INTERRUPTS()
 * (a hook must not longjmp: the parser's memory would leak).  NULL: never.
 */
typedef bool (*ScriptInterruptHook) (void);
extern void script_set_interrupt_hook(ScriptInterruptHook hook);
/* for script.c and expr.c: whether parsing must stop now */
extern bool script_poll_interrupt(void);
/* for script_parse: whether a poll has stopped this parse; start anew */
extern bool script_interrupt_stopped(void);
extern void script_interrupt_reset(void);

/* the allocation hooks, for script.c and expr.c (size 0 is taken as 1) */
extern void *script_mem_alloc(size_t size);
extern void *script_mem_realloc(void *ptr, size_t size);
extern void script_mem_free(void *ptr);

#endif							/* PGBENCHX_SCRIPT_MEM_H */
