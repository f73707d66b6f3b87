/*
 * script_mem.c -- the allocation and interrupt hooks of the language core
 * (script_mem.h), shared by script.c and expr.c.
 *
 * Must not: include PostgreSQL headers.
 */
#include "script_mem.h"

#include <stdlib.h>

/* ======================================================================
 * Allocation hooks
 * ====================================================================== */

static ScriptAllocHooks script_hooks = {malloc, realloc, free};

void
script_set_alloc_hooks(const ScriptAllocHooks *hooks)
{
	if (hooks == NULL)
	{
		script_hooks.malloc_fn = malloc;
		script_hooks.realloc_fn = realloc;
		script_hooks.free_fn = free;
	}
	else
		script_hooks = *hooks;
}

void *
script_mem_alloc(size_t size)
{
	return script_hooks.malloc_fn(size ? size : 1);
}

void *
script_mem_realloc(void *ptr, size_t size)
{
	if (ptr == NULL)
		return script_mem_alloc(size);
	return script_hooks.realloc_fn(ptr, size ? size : 1);
}

void
script_mem_free(void *ptr)
{
	if (ptr != NULL)
		script_hooks.free_fn(ptr);
}

/* ======================================================================
 * Interrupt hook
 * ====================================================================== */

static ScriptInterruptHook script_interrupt_hook = NULL;
static bool script_interrupt_seen = false;
static unsigned int script_interrupt_ticks = 0;

void
script_set_interrupt_hook(ScriptInterruptHook hook)
{
	script_interrupt_hook = hook;
}

bool
script_poll_interrupt(void)
{
	if (script_interrupt_seen)
		return true;
	/* the hook may be costly: ask it every 1024 polls */
	if (script_interrupt_hook && (++script_interrupt_ticks & 1023) == 0 &&
		script_interrupt_hook())
		script_interrupt_seen = true;
	return script_interrupt_seen;
}

bool
script_interrupt_stopped(void)
{
	return script_interrupt_seen;
}

void
script_interrupt_reset(void)
{
	script_interrupt_seen = false;
}
