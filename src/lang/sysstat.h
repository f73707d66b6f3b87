/*
 * sysstat.h: what the machine did, read from the operating system: the
 * CPU time of all cores by kind, a block device's I/O counters, and one
 * process's CPU time.  Plain C (no server headers), so that the parsers are
 * unit-tested on fixed texts (test/unit/test_sysstat.c).
 *
 * Linux reads /proc/stat, /proc/diskstats and /proc/PID/stat.  FreeBSD,
 * NetBSD and OpenBSD read the machine's CPU from the kern.cp_time sysctl
 * (ticks of stathz, not USER_HZ: only shares are taken from them), which
 * has no iowait nor steal (SysCpu.no_iowait_steal); compiled there only,
 * never tested (not DragonFly, which reads it through libkinfo).
 * Elsewhere every reader says it cannot, with a reason, and the caller
 * stores NULL (never zero).  Counters are cumulative; a caller keeps the
 * previous reading and stores the difference.
 */
#ifndef PGBENCHX_SYSSTAT_H
#define PGBENCHX_SYSSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* CPU time of all cores, in clock ticks (USER_HZ), cumulative */
typedef struct SysCpu
{
	uint64_t	user;			/* user + nice */
	uint64_t	system;			/* system + irq + softirq */
	uint64_t	iowait;
	uint64_t	steal;
	uint64_t	idle;
	bool		no_iowait_steal;	/* the system does not count them (the BSDs) */
} SysCpu;

/* the same over an interval, as fractions of the interval's total */
typedef struct SysCpuShare
{
	double		user;
	double		system;
	double		iowait;
	double		steal;
	double		idle;
} SysCpuShare;

/* one block device's counters (Documentation/admin-guide/iostats.rst) */
typedef struct SysDisk
{
	uint64_t	reads;			/* completed */
	uint64_t	read_bytes;
	uint64_t	read_ms;		/* time spent reading */
	uint64_t	writes;
	uint64_t	write_bytes;
	uint64_t	write_ms;
	uint64_t	in_flight;		/* a gauge, not a counter */
	uint64_t	io_ms;			/* time the device was busy */
	uint64_t	weighted_ms;	/* time weighted by the queue: its average depth */
} SysDisk;

/* the reason a reader could not read, for the caller's message */
#define SYSSTAT_REASON_LEN 160

/* parsers of the files' texts (what the readers below read) */
extern bool sysstat_parse_cpu(const char *text, SysCpu *out);
extern bool sysstat_parse_disk(const char *text, unsigned int major, unsigned int minor,
							   SysDisk *out);
extern bool sysstat_parse_proc_cpu(const char *text, uint64_t *utime, uint64_t *stime);

/* readers: false, with the reason, when the system does not say */
extern bool sysstat_read_cpu(SysCpu *out, char *reason);
extern bool sysstat_read_disk(unsigned int major, unsigned int minor, SysDisk *out,
							  char *reason);
extern bool sysstat_read_proc_cpu(pid_t pid, uint64_t *utime, uint64_t *stime,
								  char *reason);

/* the device that holds path, for sysstat_read_disk */
extern bool sysstat_device_of(const char *path, unsigned int *major, unsigned int *minor,
							  char *reason);

/* the shares of each kind of CPU time between two readings */
extern bool sysstat_cpu_share(const SysCpu *before, const SysCpu *after, SysCpuShare *out);

/* clock ticks per second, for the process and CPU times */
extern long sysstat_ticks_per_second(void);

#endif							/* PGBENCHX_SYSSTAT_H */
