/*
 * test_sysstat.c
 *	  Standalone unit test for src/lang/sysstat.c (what the machine did).
 *
 * Owns: the parsers of /proc/stat, /proc/diskstats and /proc/PID/stat on
 * fixed texts (old and new kernels' field counts, a process name with
 * spaces and parentheses, lines that are not what they should be), the
 * CPU shares between two readings, and the readers against this machine
 * (Linux): the CPU counters advance, this process's CPU time grows as it
 * spins, and the device of / is found or the reason says why not.  Exits
 * non-zero on any failure.
 */
#include "../../src/lang/sysstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_check.h"

static void
test_parse_cpu(void)
{
	SysCpu		c;

	CHECK(sysstat_parse_cpu("cpu  792619 2270 523735 501897 13903 0 4710 20224 0 0\ncpu0 1 2 3 4\n", &c), "parse");
	CHECK(c.user == 792619 + 2270, "user+nice %llu", (unsigned long long) c.user);
	CHECK(c.system == 523735 + 0 + 4710, "system+irq+softirq %llu", (unsigned long long) c.system);
	CHECK(c.idle == 501897 && c.iowait == 13903 && c.steal == 20224, "idle iowait steal");
	/* an old kernel: four fields, no iowait or steal */
	CHECK(sysstat_parse_cpu("cpu 10 0 5 100\n", &c) && c.iowait == 0 && c.steal == 0 && c.idle == 100, "four fields");
	CHECK(!sysstat_parse_cpu("cpu0 1 2 3 4\n", &c), "a single CPU's line is not the total");
	CHECK(!sysstat_parse_cpu("cpu 1 2\n", &c), "too few fields");
	CHECK(!sysstat_parse_cpu("intr 1 2 3 4 5\n", &c), "another line");
	CHECK(!sysstat_parse_cpu("", &c), "empty");
}

static void
test_parse_disk(void)
{
	const char *text =
		"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		" 254       0 vda 399511 29432 9385394 1585867 2129446 391373 108487232 1139553 3 415912 3007669 240096 73 51867400 94530 632800 187717\n"
		" 254       1 vda1 1000 0 2000 30 40 0 80 9 0 33 44\n"
		" 8 16 sdb 5 0 8 1 2 0\n";
	SysDisk		d;

	CHECK(sysstat_parse_disk(text, 254, 0, &d), "vda");
	CHECK(d.reads == 399511 && d.read_bytes == 9385394ULL * 512 && d.read_ms == 1585867, "vda reads");
	CHECK(d.writes == 2129446 && d.write_bytes == 108487232ULL * 512 && d.write_ms == 1139553, "vda writes");
	CHECK(d.in_flight == 3 && d.io_ms == 415912 && d.weighted_ms == 3007669, "vda queue");
	/* an old kernel's 14 fields */
	CHECK(sysstat_parse_disk(text, 254, 1, &d) && d.reads == 1000 && d.write_bytes == 80 * 512 && d.weighted_ms == 44, "vda1");
	CHECK(!sysstat_parse_disk(text, 8, 16, &d), "a line cut short is not read");
	CHECK(!sysstat_parse_disk(text, 254, 2, &d), "a device not listed");
	CHECK(!sysstat_parse_disk("", 254, 0, &d), "empty");
}

static void
test_parse_proc(void)
{
	uint64_t	u,
				s;

	CHECK(sysstat_parse_proc_cpu("18012 (cat) R 18008 18008 7221 0 -1 4194304 124 0 0 0 17 5 0 0 20 0 1 0\n", &u, &s), "cat");
	CHECK(u == 17 && s == 5, "utime %llu stime %llu", (unsigned long long) u, (unsigned long long) s);
	CHECK(sysstat_parse_proc_cpu("42 (postgres: a (b) c) S 1 42 42 0 -1 4194560 10 0 0 0 300 70 0 0 20 0 1 0\n", &u, &s) &&
		  u == 300 && s == 70, "a name with spaces and parentheses");
	CHECK(!sysstat_parse_proc_cpu("42 (x) S 1 2\n", &u, &s), "cut short");
	CHECK(!sysstat_parse_proc_cpu("no parenthesis", &u, &s), "garbage");
}

static void
test_share(void)
{
	SysCpu		a = {100, 50, 10, 0, 840, false};
	SysCpu		b = {200, 100, 30, 20, 1650, false};
	SysCpuShare sh;

	CHECK(sysstat_cpu_share(&a, &b, &sh), "share");
	CHECK(fabs(sh.user - 100.0 / 1000) < 1e-12 && fabs(sh.system - 50.0 / 1000) < 1e-12 &&
		  fabs(sh.iowait - 20.0 / 1000) < 1e-12 && fabs(sh.steal - 20.0 / 1000) < 1e-12 &&
		  fabs(sh.idle - 810.0 / 1000) < 1e-12, "fractions");
	CHECK(fabs(sh.user + sh.system + sh.iowait + sh.steal + sh.idle - 1.0) < 1e-12, "sum to one");
	CHECK(!sysstat_cpu_share(&a, &a, &sh), "no time passed: no share");
	/* iowait went back: counted as none of the interval */
	b.iowait = 5;
	CHECK(sysstat_cpu_share(&a, &b, &sh) && sh.iowait == 0.0, "iowait going back");
	/* user going back is a reset, not an interval */
	b.user = 10;
	CHECK(!sysstat_cpu_share(&a, &b, &sh), "user going back");
}

static void
test_live(void)
{
#ifdef __linux__
	char		reason[SYSSTAT_REASON_LEN] = "";
	SysCpu		c1,
				c2;
	uint64_t	u1,
				s1,
				u2,
				s2;
	unsigned int ma,
				mi;
	volatile double x = 0;

	CHECK(sysstat_read_cpu(&c1, reason), "read /proc/stat: %s", reason);
	CHECK(sysstat_read_proc_cpu(getpid(), &u1, &s1, reason), "read own stat: %s", reason);
	for (long i = 0; i < 200000000L && x < 1e300; i++)
		x += 1.0 / (i + 1);
	CHECK(sysstat_read_cpu(&c2, reason), "read /proc/stat again: %s", reason);
	CHECK(sysstat_read_proc_cpu(getpid(), &u2, &s2, reason), "read own stat again: %s", reason);
	CHECK(c2.user + c2.system + c2.idle + c2.iowait + c2.steal > c1.user + c1.system + c1.idle + c1.iowait + c1.steal,
		  "the machine's CPU counters advance");
	CHECK(u2 + s2 > u1 + s1, "this process's CPU time grows as it spins (%llu -> %llu ticks)",
		  (unsigned long long) (u1 + s1), (unsigned long long) (u2 + s2));
	CHECK(!sysstat_read_proc_cpu(0, &u1, &s1, reason) && strstr(reason, "/proc/0/stat") != NULL,
		  "no process 0: the reason names the file (%s)", reason);
	if (sysstat_device_of("/", &ma, &mi, reason))
	{
		SysDisk		d;

		if (!sysstat_read_disk(ma, mi, &d, reason))
			CHECK(strstr(reason, "/proc/diskstats") != NULL, "the reason says why: %s", reason);
	}
	else
		CHECK(strstr(reason, "\"/\"") != NULL, "the reason names the path: %s", reason);
	CHECK(!sysstat_device_of("/no/such/path", &ma, &mi, reason) && strstr(reason, "/no/such/path") != NULL,
		  "a missing path: %s", reason);
	CHECK(!sysstat_read_disk(0, 0, NULL, reason), "device 0:0 is no disk");
	CHECK(sysstat_ticks_per_second() > 0, "ticks per second");
#endif
}

int
main(void)
{
	test_parse_cpu();
	test_parse_disk();
	test_parse_proc();
	test_share();
	test_live();
	printf("test_sysstat: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
