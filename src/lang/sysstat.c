/*
 * sysstat.c: what the machine did, from the operating system (sysstat.h):
 * the parsers of /proc/stat, /proc/diskstats and /proc/PID/stat, their
 * readers, and the shares of CPU time between two readings.
 *
 * Plain C, no server headers: test/unit/test_sysstat.c checks the parsers
 * on fixed texts and the readers against this machine.  The readers open,
 * read and close a pseudo-file at once into a buffer on the stack; the
 * descriptor lives for microseconds, outside the server's file accounting,
 * and a failure to open is a reason like any other (the caller stores NULL).
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
/*
 * The BSDs' kern.cp_time.  Not DragonFly, whose tools read the CPU time
 * through libkinfo (kinfo_get_sched_cputime): left for when it can be tested.
 */
#if defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__)
#include <sys/param.h>
#include <sys/sysctl.h>
#if defined(__OpenBSD__) || defined(__NetBSD__)
#include <sys/sched.h>
#else
#include <sys/resource.h>
#endif
#define SYSSTAT_BSD 1
#endif

#include "sysstat.h"

/* a line of /proc/stat, diskstats or PID/stat (the "intr" line, longer, is never read) */
#define SYSSTAT_LINE 1024

#if defined(__GNUC__)
static void sysstat_reason(char *reason, const char *fmt,...) __attribute__((format(printf, 2, 3)));
#endif

static void
sysstat_reason(char *reason, const char *fmt,...)
{
	va_list		ap;

	if (reason == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(reason, SYSSTAT_REASON_LEN, fmt, ap);
	va_end(ap);
}

/* the next unsigned decimal of *p, skipping blanks; false at none */
static bool
sysstat_next_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	char	   *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	*p = end;
	return true;
}

/*
 * /proc/stat's first line: "cpu  user nice system idle iowait irq softirq
 * steal guest guest_nice" (iowait from Linux 2.5.41, steal from 2.6.11:
 * missing fields read as 0).  guest time is already inside user.
 */
bool
sysstat_parse_cpu(const char *text, SysCpu *out)
{
	const char *p = text;
	uint64_t	f[8] = {0};
	int			n = 0;

	if (strncmp(p, "cpu ", 4) != 0)
		return false;
	p += 4;
	while (n < 8 && sysstat_next_u64(&p, &f[n]))
		n++;
	if (n < 4)
		return false;
	out->user = f[0] + f[1];
	out->system = f[2] + f[5] + f[6];
	out->idle = f[3];
	out->iowait = f[4];
	out->steal = f[7];
	out->no_iowait_steal = false;
	return true;
}

/*
 * /proc/diskstats: "major minor name" then reads, reads merged, sectors
 * read, ms reading, writes, writes merged, sectors written, ms writing, in
 * flight, ms doing I/O, weighted ms, and (newer kernels) discard and flush
 * fields.  A sector here is always 512 bytes.
 */
bool
sysstat_parse_disk(const char *text, unsigned int major, unsigned int minor, SysDisk *out)
{
	const char *line = text;

	while (*line)
	{
		const char *next = strchr(line, '\n');
		unsigned int ma,
					mi;
		int			consumed = 0;

		if (sscanf(line, " %u %u %*s%n", &ma, &mi, &consumed) == 2 && consumed > 0 &&
			ma == major && mi == minor)
		{
			const char *p = line + consumed;
			uint64_t	f[11];

			for (int i = 0; i < 11; i++)
				if (!sysstat_next_u64(&p, &f[i]))
					return false;
			out->reads = f[0];
			out->read_bytes = f[2] * 512;
			out->read_ms = f[3];
			out->writes = f[4];
			out->write_bytes = f[6] * 512;
			out->write_ms = f[7];
			out->in_flight = f[8];
			out->io_ms = f[9];
			out->weighted_ms = f[10];
			return true;
		}
		if (next == NULL)
			break;
		line = next + 1;
	}
	return false;
}

/*
 * /proc/PID/stat: "pid (comm) state ppid ..." with utime and stime the
 * 14th and 15th fields.  comm may hold spaces and parentheses: the fields
 * start after its last ')'.
 */
bool
sysstat_parse_proc_cpu(const char *text, uint64_t *utime, uint64_t *stime)
{
	const char *p = strrchr(text, ')');
	uint64_t	skip;

	if (p == NULL)
		return false;
	p++;
	/* state (a letter), then fields 4..13 */
	while (*p == ' ')
		p++;
	if (*p == '\0')
		return false;
	p++;
	for (int i = 4; i <= 13; i++)
	{
		/* ppid, pgrp ... may be -1 (tty_nr, tpgid) */
		while (*p == ' ')
			p++;
		if (*p == '-')
			p++;
		if (!sysstat_next_u64(&p, &skip))
			return false;
	}
	return sysstat_next_u64(&p, utime) && sysstat_next_u64(&p, stime);
}

/*
 * The readers: each opens its pseudo-file, reads lines until it has what
 * it wants, and closes it.
 */
bool
sysstat_read_cpu(SysCpu *out, char *reason)
{
#ifdef __linux__
	char		line[SYSSTAT_LINE];
	FILE	   *f = fopen("/proc/stat", "re");
	bool		ok;

	if (f == NULL)
	{
		sysstat_reason(reason, "could not open /proc/stat: %s", strerror(errno));
		return false;
	}
	ok = fgets(line, sizeof(line), f) != NULL && sysstat_parse_cpu(line, out);
	fclose(f);
	if (!ok)
		sysstat_reason(reason, "/proc/stat does not start with the line \"cpu\"");
	return ok;
#elif defined(SYSSTAT_BSD)
	/*
	 * kern.cp_time: CPUSTATES ticks summed over the CPUs (user, nice, sys,
	 * intr, idle).  FreeBSD gives longs, NetBSD uint64_t;
	 * OpenBSD has no sysctlbyname and gives longs under KERN_CPTIME.  Not
	 * tested here (Linux only): compiled on those systems alone.
	 */
#if defined(__NetBSD__)
	uint64_t	t[CPUSTATES];
#else
	long		t[CPUSTATES];
#endif
	size_t		len = sizeof(t);
#if defined(__OpenBSD__)
	int			mib[2] = {CTL_KERN, KERN_CPTIME};

	if (sysctl(mib, 2, t, &len, NULL, 0) != 0)
#else
	if (sysctlbyname("kern.cp_time", t, &len, NULL, 0) != 0)
#endif
	{
		sysstat_reason(reason, "could not read the sysctl kern.cp_time: %s", strerror(errno));
		return false;
	}
	out->user = (uint64_t) t[CP_USER] + (uint64_t) t[CP_NICE];
	out->system = (uint64_t) t[CP_SYS] + (uint64_t) t[CP_INTR];
	out->idle = (uint64_t) t[CP_IDLE];
	out->iowait = 0;
	out->steal = 0;
	out->no_iowait_steal = true;
	return true;
#else
	(void) out;
	sysstat_reason(reason, "the machine's CPU time is read only on Linux (/proc/stat), FreeBSD, NetBSD and OpenBSD (kern.cp_time)");
	return false;
#endif
}

bool
sysstat_read_disk(unsigned int major, unsigned int minor, SysDisk *out, char *reason)
{
#ifdef __linux__
	char		line[SYSSTAT_LINE];
	FILE	   *f = fopen("/proc/diskstats", "re");
	bool		found = false;

	if (f == NULL)
	{
		sysstat_reason(reason, "could not open /proc/diskstats: %s", strerror(errno));
		return false;
	}
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sysstat_parse_disk(line, major, minor, out);
	fclose(f);
	if (!found)
		sysstat_reason(reason, "device %u:%u is not in /proc/diskstats (not a block device: tmpfs, overlay, a network file system?)",
					   major, minor);
	return found;
#else
	(void) major;
	(void) minor;
	(void) out;
	sysstat_reason(reason, "disk counters are read only on Linux (/proc/diskstats)");
	return false;
#endif
}

bool
sysstat_read_proc_cpu(pid_t pid, uint64_t *utime, uint64_t *stime, char *reason)
{
#ifdef __linux__
	char		path[64];
	char		line[SYSSTAT_LINE];
	FILE	   *f;
	bool		ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	f = fopen(path, "re");
	if (f == NULL)
	{
		sysstat_reason(reason, "could not open %s: %s", path, strerror(errno));
		return false;
	}
	ok = fgets(line, sizeof(line), f) != NULL && sysstat_parse_proc_cpu(line, utime, stime);
	fclose(f);
	if (!ok)
		sysstat_reason(reason, "could not parse %s", path);
	return ok;
#else
	(void) pid;
	(void) utime;
	(void) stime;
	sysstat_reason(reason, "a process's CPU time is read only on Linux (/proc/PID/stat)");
	return false;
#endif
}

bool
sysstat_device_of(const char *path, unsigned int *major, unsigned int *minor, char *reason)
{
	struct stat st;

	if (stat(path, &st) != 0)
	{
		sysstat_reason(reason, "could not stat \"%s\": %s", path, strerror(errno));
		return false;
	}
	*major = major(st.st_dev);
	*minor = minor(st.st_dev);
	if (*major == 0)
	{
		sysstat_reason(reason, "\"%s\" is on a file system with no block device (device 0:%u)", path, *minor);
		return false;
	}
	return true;
}

bool
sysstat_cpu_share(const SysCpu *before, const SysCpu *after, SysCpuShare *out)
{
	uint64_t	d[5];
	uint64_t	total = 0;

	d[0] = after->user - before->user;
	d[1] = after->system - before->system;
	d[2] = after->iowait - before->iowait;
	d[3] = after->steal - before->steal;
	d[4] = after->idle - before->idle;
	/*
	 * A counter that went back (iowait may, on some kernels, as an idle CPU
	 * is counted on another one) is no share at all: none of the interval is
	 * given to it.
	 */
	if (after->iowait < before->iowait)
		d[2] = 0;
	if (after->idle < before->idle)
		d[4] = 0;
	for (int i = 0; i < 5; i++)
	{
		if (d[i] > UINT64_C(1) << 62)
			return false;
		total += d[i];
	}
	if (total == 0)
		return false;
	out->user = (double) d[0] / total;
	out->system = (double) d[1] / total;
	out->iowait = (double) d[2] / total;
	out->steal = (double) d[3] / total;
	out->idle = (double) d[4] / total;
	return true;
}

long
sysstat_ticks_per_second(void)
{
	long		hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? hz : 100;
}
