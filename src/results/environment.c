/*-------------------------------------------------------------------------
 *
 * environment.c
 *	  The environment a benchmark runs in, as the server process itself
 *	  sees it: the OS (uname, distribution), the CPU model and online count,
 *	  total memory, a virtualization hint, the file system type, mount
 *	  options and device of data_directory and of pg_wal (and, as keys of
 *	  settings, of the tablespace of the run's pgbench_accounts when it is
 *	  not pg_default), version() and the
 *	  build facts, and the settings.  One row per distinct environment in
 *	  pgbenchx.environments, deduplicated by env_hash among the rows this
 *	  server captured (imported_by NULL): a row import() added is never
 *	  reused by a capture, whatever its hash.
 *
 * Linux reads /proc/cpuinfo, /proc/meminfo, /proc/self/mountinfo, /sys
 * (DMI, hypervisor) and /etc/os-release; FreeBSD, DragonFly, NetBSD and
 * OpenBSD use sysctl and statfs (statvfs on NetBSD).  Anything that cannot
 * be read is left NULL: capturing never fails because a file is missing.
 * Only the Linux paths are exercised by the tests (docs/environments.md,
 * "What is verified where").
 *
 * This file owns what is captured and how it is hashed; it does not decide
 * when (results.c captures at sweep and run start) and it writes nothing
 * but pgbenchx.environments.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/vfs.h>
#elif defined(__FreeBSD__) || defined(__DragonFly__) || defined(__NetBSD__) || defined(__OpenBSD__)
#define ENVIRONMENT_BSD 1
#include <sys/param.h>
#include <sys/mount.h>
#include <sys/sysctl.h>
#ifdef __NetBSD__
#include <sys/statvfs.h>
#endif
#endif

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "common/string.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/json.h"
#include "utils/lsyscache.h"

#include "environment.h"
#include "owner.h"
#include "pg_compat.h"

/* what the OS says about one file system */
typedef struct EnvironmentMount
{
	char	   *fstype;
	char	   *options;
	char	   *device;
} EnvironmentMount;

/* what the OS says, before the server's own facts are added in SQL */
typedef struct EnvironmentFacts
{
	char	   *hostname;
	char	   *sysname;
	char	   *release;
	char	   *version;
	char	   *machine;
	char	   *distribution;
	char	   *cpu_model;
	int			cpu_count;		/* 0: unknown */
	int64		memory_bytes;	/* 0: unknown */
	char	   *virtualization;
	EnvironmentMount data;
	EnvironmentMount wal;
	char	   *tablespace_name;	/* NULL: pg_default, or none known */
	EnvironmentMount tablespace;
} EnvironmentFacts;

/*
 * Settings recorded whatever their source: the ones the seeds compare, and
 * two initdb-time facts (checksums, WAL segment size) that change what a
 * benchmark measures but are never "not at their default" in pg_settings.
 */
static const char *const environment_key_settings[] = {
	"shared_buffers", "max_connections", "fsync", "synchronous_commit",
	"full_page_writes", "wal_level", "wal_sync_method", "checkpoint_timeout",
	"max_wal_size", "effective_cache_size", "huge_pages", "work_mem",
	"data_checksums", "wal_segment_size",
	NULL
};

/* ---------------------------------------------------------------- helpers */

/* a copy of s without leading and trailing white space and quotes */
static char *
environment_trim(const char *s)
{
	const char *end;

	while (*s == ' ' || *s == '\t' || *s == '"' || *s == '\'')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
					   end[-1] == '\r' || end[-1] == '"' || end[-1] == '\''))
		end--;
	return pnstrdup(s, end - s);
}

/* the first line of a small file, trimmed; NULL if unreadable or empty */
pg_attribute_unused()
static char *
environment_first_line(const char *path)
{
	FILE	   *f = AllocateFile(path, "r");
	StringInfoData line;
	char	   *result = NULL;

	if (f == NULL)
		return NULL;
	initStringInfo(&line);
	if (pg_get_line_buf(f, &line))
	{
		result = environment_trim(line.data);
		if (result[0] == '\0')
			result = NULL;
	}
	FreeFile(f);
	return result;
}

/*
 * The value of the first line "key<sep>value" of a file whose key is one of
 * keys (tried in order of the keys, so that "model name" is preferred over
 * "Hardware"), or NULL.
 */
static char *
environment_keyed_value(const char *path, const char *const *keys, char sep)
{
	FILE	   *f = AllocateFile(path, "r");
	StringInfoData line;
	char	   *found[8] = {0};
	int			nkeys = 0;
	char	   *result = NULL;

	if (f == NULL)
		return NULL;
	while (keys[nkeys] != NULL && nkeys < (int) lengthof(found))
		nkeys++;
	initStringInfo(&line);
	while (pg_get_line_buf(f, &line))
	{
		char	   *p = strchr(line.data, sep);
		char	   *key;

		if (p == NULL)
			continue;
		*p = '\0';
		key = environment_trim(line.data);
		for (int i = 0; i < nkeys; i++)
			if (found[i] == NULL && strcmp(key, keys[i]) == 0)
				found[i] = environment_trim(p + 1);
		pfree(key);
	}
	FreeFile(f);
	for (int i = 0; i < nkeys && result == NULL; i++)
		if (found[i] != NULL && found[i][0] != '\0')
			result = found[i];
	return result;
}

/* the distribution's PRETTY_NAME from os-release, or NULL */
static char *
environment_distribution(void)
{
	static const char *const keys[] = {"PRETTY_NAME", "NAME", NULL};
	char	   *name = environment_keyed_value("/etc/os-release", keys, '=');

	if (name == NULL)
		name = environment_keyed_value("/usr/lib/os-release", keys, '=');
	return name;
}

pg_attribute_unused()
static void
environment_add_option(StringInfo buf, const char *option)
{
	appendStringInfo(buf, "%s%s", buf->len > 0 ? "," : "", option);
}

/* ---------------------------------------------------------------- Linux */
#if defined(__linux__)

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static char *
environment_unescape(const char *s)
{
	char	   *out = palloc(strlen(s) + 1);
	char	   *o = out;

	while (*s)
	{
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
			s[3] >= '0' && s[3] <= '7')
		{
			*o++ = (char) ((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		}
		else
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/* is path mount point mp or below it? */
static bool
environment_path_under(const char *path, const char *mp)
{
	size_t		len = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return true;
	return strncmp(path, mp, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* per-mount options, then the super block's options not already there */
static char *
environment_merge_options(const char *mount_opts, const char *super_opts)
{
	StringInfoData buf;
	char	   *copy;
	char	   *tok;
	char	   *save;

	initStringInfo(&buf);
	copy = pstrdup(mount_opts);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		environment_add_option(&buf, tok);
	copy = pstrdup(super_opts);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *have = psprintf(",%s,", buf.data);
		char	   *want = psprintf(",%s,", tok);

		if (strstr(have, want) == NULL)
			environment_add_option(&buf, tok);
	}
	return buf.data;
}

/* a name for statfs's f_type, when mountinfo cannot be read */
static char *
environment_linux_magic_name(long magic)
{
	switch ((unsigned long) magic & 0xFFFFFFFFUL)
	{
		case 0xEF53:
			return pstrdup("ext2/ext3/ext4");
		case 0x58465342:
			return pstrdup("xfs");
		case 0x9123683E:
			return pstrdup("btrfs");
		case 0x2FC12FC1:
			return pstrdup("zfs");
		case 0x01021994:
			return pstrdup("tmpfs");
		case 0x794C7630:
			return pstrdup("overlay");
		case 0xF2F52010:
			return pstrdup("f2fs");
		case 0x6969:
			return pstrdup("nfs");
		case 0xCA451A4E:
			return pstrdup("bcachefs");
		default:
			return psprintf("0x%lx", (unsigned long) magic & 0xFFFFFFFFUL);
	}
}

/*
 * The mount that holds path: the mountinfo entry with the longest mount
 * point that is a prefix of path (the last one listed on a tie: it is
 * mounted over the others).
 */
static void
environment_mount(const char *path, EnvironmentMount *m)
{
	FILE	   *f = AllocateFile("/proc/self/mountinfo", "r");
	StringInfoData line;
	size_t		best = 0;
	bool		found = false;

	if (f != NULL)
	{
		initStringInfo(&line);
		while (pg_get_line_buf(f, &line))
		{
			char	   *fields[64];
			int			n = 0;
			int			dash = -1;
			char	   *save;
			char	   *mp;

			for (char *tok = strtok_r(line.data, " \n", &save);
				 tok && n < (int) lengthof(fields);
				 tok = strtok_r(NULL, " \n", &save))
			{
				if (dash < 0 && n >= 6 && strcmp(tok, "-") == 0)
					dash = n;
				fields[n++] = tok;
			}
			/* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
			if (dash < 0 || n < dash + 4)
				continue;
			mp = environment_unescape(fields[4]);
			if (environment_path_under(path, mp) && (!found || strlen(mp) >= best))
			{
				best = strlen(mp);
				found = true;
				m->fstype = pstrdup(fields[dash + 1]);
				m->device = environment_unescape(fields[dash + 2]);
				m->options = environment_merge_options(fields[5], fields[dash + 3]);
			}
			pfree(mp);
		}
		FreeFile(f);
	}
	if (!found)
	{
		struct statfs sfs;

		if (statfs(path, &sfs) == 0)
			m->fstype = environment_linux_magic_name((long) sfs.f_type);
	}
}

/* a hint of the hypervisor or container this runs in, "none" if none seen */
static char *
environment_virtualization(const char *cpu_flags)
{
	static const struct
	{
		const char *needle;
		const char *name;
	}			vms[] = {
		{"KVM", "kvm"}, {"QEMU", "qemu"}, {"VMware", "vmware"},
		{"VirtualBox", "virtualbox"}, {"innotek", "virtualbox"}, {"Xen", "xen"},
		{"Microsoft Corporation", "hyper-v"}, {"Amazon EC2", "amazon"},
		{"Google", "google"}, {"Parallels", "parallels"}, {"BHYVE", "bhyve"},
		{"OpenStack", "openstack"},
	};
	char	   *vendor = environment_first_line("/sys/class/dmi/id/sys_vendor");
	char	   *product = environment_first_line("/sys/class/dmi/id/product_name");
	char	   *dmi = psprintf("%s %s", vendor ? vendor : "", product ? product : "");
	const char *vm = NULL;
	const char *container = NULL;
	char	   *cgroup;
	struct stat st;

	for (int i = 0; i < (int) lengthof(vms) && vm == NULL; i++)
		if (strstr(dmi, vms[i].needle) != NULL)
			vm = vms[i].name;
	if (vm == NULL)
		vm = environment_first_line("/sys/hypervisor/type");
	if (vm == NULL && cpu_flags != NULL &&
		strstr(psprintf(" %s ", cpu_flags), " hypervisor ") != NULL)
		vm = "vm";

	cgroup = environment_first_line("/proc/1/cgroup");
	if (stat("/.dockerenv", &st) == 0)
		container = "docker";
	else if (stat("/run/.containerenv", &st) == 0)
		container = "podman";
	else if (cgroup != NULL && strstr(cgroup, "kubepods") != NULL)
		container = "kubernetes";
	else if (cgroup != NULL && strstr(cgroup, "docker") != NULL)
		container = "docker";
	else if (cgroup != NULL && strstr(cgroup, "lxc") != NULL)
		container = "lxc";

	if (vm && container)
		return psprintf("%s, %s", vm, container);
	return pstrdup(vm ? vm : container ? container : "none");
}

static void
environment_os_facts(EnvironmentFacts *e)
{
	static const char *const model_keys[] = {"model name", "cpu model", "Processor", "cpu", "Hardware", NULL};
	static const char *const flag_keys[] = {"flags", NULL};
	static const char *const mem_keys[] = {"MemTotal", NULL};
	char	   *mem;
	long		ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	e->cpu_model = environment_keyed_value("/proc/cpuinfo", model_keys, ':');
	e->cpu_count = ncpu > 0 ? (int) ncpu : 0;
	mem = environment_keyed_value("/proc/meminfo", mem_keys, ':');
	if (mem != NULL)
		e->memory_bytes = strtoll(mem, NULL, 10) * 1024;	/* "24683652 kB" */
	e->virtualization =
		environment_virtualization(environment_keyed_value("/proc/cpuinfo", flag_keys, ':'));
}

/* ---------------------------------------------------------------- the BSDs */
#elif defined(ENVIRONMENT_BSD)

/* a string sysctl by MIB, or NULL */
static char *
environment_sysctl_string(int top, int second)
{
	int			mib[2] = {top, second};
	char		buf[256];
	size_t		len = sizeof(buf) - 1;

	if (sysctl(mib, 2, buf, &len, NULL, 0) != 0 || len == 0)
		return NULL;
	buf[Min(len, sizeof(buf) - 1)] = '\0';
	return environment_trim(buf);
}

/* an integer sysctl of 4 or 8 bytes by MIB, or 0 */
static int64
environment_sysctl_int(int top, int second)
{
	int			mib[2] = {top, second};
	union
	{
		uint32		u32;
		uint64		u64;
	}			v;
	size_t		len = sizeof(v);

	memset(&v, 0, sizeof(v));
	if (sysctl(mib, 2, &v, &len, NULL, 0) != 0)
		return 0;
	return len == sizeof(uint32) ? (int64) v.u32 : (int64) v.u64;
}

/* f_flags of statfs/statvfs, spelled as mount(8) spells them */
static char *
environment_bsd_flags(uint64 flags)
{
	StringInfoData buf;

	initStringInfo(&buf);
	environment_add_option(&buf, (flags & MNT_RDONLY) ? "ro" : "rw");
#ifdef MNT_SYNCHRONOUS
	if (flags & MNT_SYNCHRONOUS)
		environment_add_option(&buf, "sync");
#endif
#ifdef MNT_ASYNC
	if (flags & MNT_ASYNC)
		environment_add_option(&buf, "async");
#endif
#ifdef MNT_NOEXEC
	if (flags & MNT_NOEXEC)
		environment_add_option(&buf, "noexec");
#endif
#ifdef MNT_NOSUID
	if (flags & MNT_NOSUID)
		environment_add_option(&buf, "nosuid");
#endif
#ifdef MNT_NODEV
	if (flags & MNT_NODEV)
		environment_add_option(&buf, "nodev");
#endif
#ifdef MNT_NOATIME
	if (flags & MNT_NOATIME)
		environment_add_option(&buf, "noatime");
#endif
#ifdef MNT_SOFTDEP
	if (flags & MNT_SOFTDEP)
		environment_add_option(&buf, "soft-updates");
#endif
#ifdef MNT_SUJ
	if (flags & MNT_SUJ)
		environment_add_option(&buf, "journaled soft-updates");
#endif
#ifdef MNT_GJOURNAL
	if (flags & MNT_GJOURNAL)
		environment_add_option(&buf, "gjournal");
#endif
#ifdef MNT_LOG
	if (flags & MNT_LOG)
		environment_add_option(&buf, "log");
#endif
#ifdef MNT_NOCLUSTERR
	if (flags & MNT_NOCLUSTERR)
		environment_add_option(&buf, "noclusterr");
#endif
#ifdef MNT_NOCLUSTERW
	if (flags & MNT_NOCLUSTERW)
		environment_add_option(&buf, "noclusterw");
#endif
#ifdef MNT_ACLS
	if (flags & MNT_ACLS)
		environment_add_option(&buf, "acls");
#endif
#ifdef MNT_NFS4ACLS
	if (flags & MNT_NFS4ACLS)
		environment_add_option(&buf, "nfsv4acls");
#endif
#ifdef MNT_WXALLOWED
	if (flags & MNT_WXALLOWED)
		environment_add_option(&buf, "wxallowed");
#endif
	return buf.data;
}

/* statfs on the path itself names its mount: no getmntinfo walk needed */
static void
environment_mount(const char *path, EnvironmentMount *m)
{
#ifdef __NetBSD__
	struct statvfs sfs;

	if (statvfs(path, &sfs) != 0)
		return;
	m->options = environment_bsd_flags((uint64) sfs.f_flag);
#else
	struct statfs sfs;

	if (statfs(path, &sfs) != 0)
		return;
	m->options = environment_bsd_flags((uint64) sfs.f_flags);
#endif
	m->fstype = pstrdup(sfs.f_fstypename);
	m->device = pstrdup(sfs.f_mntfromname);
}

static void
environment_os_facts(EnvironmentFacts *e)
{
	char		guest[64];
	size_t		len pg_attribute_unused() = sizeof(guest) - 1;
	const char *vm = NULL;
	bool		jailed = false;

	e->cpu_model = environment_sysctl_string(CTL_HW, HW_MODEL);
#ifdef HW_NCPUONLINE
	e->cpu_count = (int) environment_sysctl_int(CTL_HW, HW_NCPUONLINE);
#endif
	if (e->cpu_count <= 0)
		e->cpu_count = (int) environment_sysctl_int(CTL_HW, HW_NCPU);
#ifdef HW_PHYSMEM64
	e->memory_bytes = environment_sysctl_int(CTL_HW, HW_PHYSMEM64);
#else
	e->memory_bytes = environment_sysctl_int(CTL_HW, HW_PHYSMEM);
#endif

	/* FreeBSD: kern.vm_guest; DragonFly: kern.vmm_guest; NetBSD: machdep.hypervisor */
	memset(guest, 0, sizeof(guest));
#if defined(__FreeBSD__)
	if (sysctlbyname("kern.vm_guest", guest, &len, NULL, 0) == 0)
		vm = guest;
	{
		int			j = 0;
		size_t		jlen = sizeof(j);

		if (sysctlbyname("security.jail.jailed", &j, &jlen, NULL, 0) == 0 && j != 0)
			jailed = true;
	}
#elif defined(__DragonFly__)
	if (sysctlbyname("kern.vmm_guest", guest, &len, NULL, 0) == 0)
		vm = guest;
#elif defined(__NetBSD__)
	if (sysctlbyname("machdep.hypervisor", guest, &len, NULL, 0) == 0)
		vm = guest;
#elif defined(__OpenBSD__) && defined(HW_PRODUCT)
	{
		char	   *product = environment_sysctl_string(CTL_HW, HW_PRODUCT);

		if (product != NULL)
			vm = product;
	}
#endif
	if (vm != NULL && (vm[0] == '\0' || strcmp(vm, "none") == 0))
		vm = NULL;
	if (vm && jailed)
		e->virtualization = psprintf("%s, jail", vm);
	else
		e->virtualization = pstrdup(vm ? vm : jailed ? "jail" : "none");
}

/* ---------------------------------------------------------------- elsewhere */
#else

static void
environment_mount(const char *path, EnvironmentMount *m)
{
	(void) path;
	(void) m;
}

static void
environment_os_facts(EnvironmentFacts *e)
{
	long		ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	e->cpu_count = ncpu > 0 ? (int) ncpu : 0;
}
#endif

/* ---------------------------------------------------------------- capture */

/* the data directory and pg_wal, their symbolic links resolved */
static void
environment_file_systems(EnvironmentFacts *e)
{
	char		resolved[MAXPGPATH > PATH_MAX ? MAXPGPATH : PATH_MAX];
	char	   *data;
	char	   *wal;

	data = realpath(DataDir, resolved) ? pstrdup(resolved) : pstrdup(DataDir);
	environment_mount(data, &e->data);
	wal = psprintf("%s/pg_wal", DataDir);
	if (realpath(wal, resolved))
		wal = pstrdup(resolved);
	environment_mount(wal, &e->wal);
}

static void
environment_os(EnvironmentFacts *e)
{
	struct utsname u;

	if (uname(&u) == 0)
	{
		e->hostname = pstrdup(u.nodename);
		e->sysname = pstrdup(u.sysname);
		e->release = pstrdup(u.release);
		e->version = pstrdup(u.version);
		e->machine = pstrdup(u.machine);
	}
	e->distribution = environment_distribution();
	environment_os_facts(e);
	environment_file_systems(e);
}

static bool
environment_is_key_setting(const char *name)
{
	for (int i = 0; environment_key_settings[i] != NULL; i++)
		if (pg_strcasecmp(name, environment_key_settings[i]) == 0)
			return true;
	return false;
}

/*
 * Is a setting from this source part of the environment?  The server's
 * configuration (file, command line, ALTER SYSTEM, the postmaster's
 * environment) and ALTER DATABASE/ROLE ... SET are what the benchmark's
 * clients get.  Defaults are not recorded (they follow from version()),
 * nor are values computed by the server (override: data_directory,
 * transaction_isolation ...), nor what one session's client asked for
 * (PGOPTIONS, application_name): those describe a session, not the server.
 * A setting whose value is its compiled-in default all the same (a
 * configuration file that says logging_collector = off) is left out when
 * the row is written (ENVIRONMENT_SQL, from pg_settings' reset_val and
 * boot_val), but the key settings: two servers that differ only in writing
 * a default down are the same environment (issue 37 §4).
 */
static bool
environment_source_recorded(GucSource source)
{
	switch (source)
	{
		case PGC_S_ENV_VAR:
		case PGC_S_FILE:
		case PGC_S_ARGV:
		case PGC_S_GLOBAL:
		case PGC_S_DATABASE:
		case PGC_S_USER:
		case PGC_S_DATABASE_USER:
			return true;
		default:
			return false;
	}
}

/*
 * The tablespace of the run's pgbench_accounts, as keys of settings (no
 * setting has these names): "tablespace" (its name), "tablespace_fstype",
 * "tablespace_mount_options" and "tablespace_device", each only when known,
 * so that an environment without one hashes as before and env_diff shows
 * them as setting:tablespace...  first: nothing in buf yet.
 */
static void
environment_tablespace_json(StringInfo buf, const EnvironmentFacts *e, bool first)
{
	const char *const keys[] = {
		"tablespace", "tablespace_fstype", "tablespace_mount_options", "tablespace_device"
	};
	const char *const values[] = {
		e->tablespace_name, e->tablespace.fstype, e->tablespace.options, e->tablespace.device
	};

	if (e->tablespace_name == NULL)
		return;
	for (int i = 0; i < (int) lengthof(keys); i++)
	{
		if (values[i] == NULL)
			continue;
		if (!first)
			appendStringInfoString(buf, ", ");
		first = false;
		escape_json(buf, keys[i]);
		appendStringInfoString(buf, ": ");
		escape_json(buf, values[i]);
	}
}

/*
 * The settings as a json object of name to value (as SHOW shows it, units
 * included).  A value changed with SET in this session is recorded as it
 * was before the SET (what a new session of this role gets, and what the
 * coordinator sees), by resetting it for a moment inside a GUC nest level.
 * Settings only superusers may read (archive_command, file paths ...) are
 * never recorded, whoever captures: the row must not leak them to the
 * roles that read the results, and it must not depend on who captured it.
 */
static char *
environment_settings_json(const EnvironmentFacts *e)
{
	int			nvars;
	struct config_generic **vars = pgx_get_guc_variables(&nvars);
	StringInfoData buf;
	bool		first = true;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < nvars; i++)
	{
		struct config_generic *conf = vars[i];
		bool		set_here = conf->source == PGC_S_SESSION;
		GucSource	source = set_here ? conf->reset_source : conf->source;
		char	   *value;

		if (conf->flags & (GUC_NO_SHOW_ALL | GUC_SUPERUSER_ONLY | GUC_CUSTOM_PLACEHOLDER))
			continue;
		if (!environment_source_recorded(source) && !environment_is_key_setting(conf->name))
			continue;
		if (set_here)
		{
			int			nest = NewGUCNestLevel();

			(void) set_config_option(conf->name, NULL,
									 superuser() ? PGC_SUSET : PGC_USERSET,
									 PGC_S_SESSION, GUC_ACTION_SAVE, true, DEBUG1, false);
			value = GetConfigOptionByName(conf->name, NULL, true);
			AtEOXact_GUC(true, nest);
		}
		else
			value = GetConfigOptionByName(conf->name, NULL, true);
		if (value == NULL)
			continue;
		if (!first)
			appendStringInfoString(&buf, ", ");
		first = false;
		escape_json(&buf, conf->name);
		appendStringInfoString(&buf, ": ");
		escape_json(&buf, value);
	}
	environment_tablespace_json(&buf, e, first);
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

#define ENVIRONMENT_NARGS 19

/*
 * The row is built in SQL from the OS facts (parameters) and the server's
 * own (version(), block sizes, integer_datetimes).  env_hash is the md5 of
 * the row as jsonb without environment_id, env_hash, captured_at and
 * imported_by, so it can be checked from a stored row:
 *   md5((to_jsonb(e) - 'environment_id' - 'env_hash' - 'captured_at'
 *        - 'imported_by')::text)
 * An environment this server captured before is not inserted again (NOT
 * EXISTS, so that its sequence is not drawn on every capture; ON CONFLICT
 * on the captured rows' unique index for a concurrent capture).  Only
 * captured rows (imported_by IS NULL) are looked at: anyone who may import
 * can store a row under the hash this server would compute next, with
 * other contents, and a capture must never link runs to it.  The INSERT's
 * own row is not visible to the second branch, which finds the row that
 * was already there.
 */
#define ENVIRONMENT_SQL(CAPTURED, CONFLICT) \
"WITH e AS (" \
"  SELECT $1::text AS hostname, $2::text AS os_sysname, $3::text AS os_release," \
"         $4::text AS os_version, $5::text AS os_machine, $6::text AS os_distribution," \
"         $7::text AS cpu_model, $8::int AS cpu_count, $9::bigint AS memory_bytes," \
"         $10::text AS virtualization," \
"         $11::text AS data_fstype, $12::text AS data_mount_options, $13::text AS data_device," \
"         $14::text AS wal_fstype, $15::text AS wal_mount_options, $16::text AS wal_device," \
"         pg_catalog.version() AS pg_version, $17::int AS pointer_bits," \
"         pg_catalog.current_setting('block_size')::int AS block_size," \
"         pg_catalog.current_setting('wal_block_size')::int AS wal_block_size," \
"         pg_catalog.pg_size_bytes(pg_catalog.current_setting('segment_size')) AS segment_size," \
"         pg_catalog.current_setting('integer_datetimes')::boolean AS integer_datetimes," \
"         $18::jsonb OPERATOR(pg_catalog.-) ARRAY(SELECT s.name FROM pg_catalog.pg_settings s" \
"           WHERE s.reset_val IS NOT DISTINCT FROM s.boot_val" \
"             AND NOT pg_catalog.lower(s.name) OPERATOR(pg_catalog.=) ANY ($19::text[])) AS settings)," \
" h AS (SELECT pg_catalog.md5(pg_catalog.to_jsonb(e)::text) AS env_hash, e.* FROM e)," \
" ins AS (INSERT INTO pgbenchx.environments (env_hash, hostname, os_sysname, os_release," \
"           os_version, os_machine, os_distribution, cpu_model, cpu_count, memory_bytes," \
"           virtualization, data_fstype, data_mount_options, data_device, wal_fstype," \
"           wal_mount_options, wal_device, pg_version, pointer_bits, block_size," \
"           wal_block_size, segment_size, integer_datetimes, settings)" \
"         SELECT * FROM h" \
"         WHERE NOT EXISTS (SELECT FROM pgbenchx.environments x" \
"                           WHERE x.env_hash OPERATOR(pg_catalog.=) h.env_hash" CAPTURED ")" \
"         ON CONFLICT " CONFLICT " DO NOTHING RETURNING environment_id)" \
" SELECT environment_id FROM ins" \
" UNION ALL" \
" SELECT x.environment_id FROM pgbenchx.environments x, h" \
" WHERE x.env_hash OPERATOR(pg_catalog.=) h.env_hash" CAPTURED \
" LIMIT 1"

static const char *const environment_sql =
	ENVIRONMENT_SQL(" AND x.imported_by IS NULL", "(env_hash) WHERE imported_by IS NULL");

/*
 * The SQL of pgbenchx 0.4 and before, whose environments have no
 * imported_by (and env_hash is unique over every row): capture_environment()
 * works there until ALTER EXTENSION pgbenchx UPDATE, as it did.
 */
static const char *const environment_sql_before_05 =
	ENVIRONMENT_SQL("", "(env_hash)");

/* Does this database's pgbenchx.environments have imported_by (0.5 on)? */
static bool
environment_has_provenance(void)
{
	Oid			nsp = get_namespace_oid("pgbenchx", true);
	Oid			rel = OidIsValid(nsp) ? get_relname_relid("environments", nsp) : InvalidOid;

	return OidIsValid(rel) && get_attnum(rel, "imported_by") != InvalidAttrNumber;
}

/*
 * The tablespace spc, named spcname where the clients' database sees it:
 * its directory ($PGDATA/pg_tblspc/<oid>, the symbolic link resolved) on
 * this server, if this server has a tablespace of that oid and that name
 * (a run whose clients are on another server records none).
 */
static void
environment_tablespace(EnvironmentFacts *e, Oid spc, const char *spcname)
{
	char		resolved[MAXPGPATH > PATH_MAX ? MAXPGPATH : PATH_MAX];
	char	   *name;
	char	   *dir;

	if (!OidIsValid(spc) || spcname == NULL)
		return;
	name = get_tablespace_name(spc);
	if (name == NULL || strcmp(name, spcname) != 0)
		return;
	dir = psprintf("%s/pg_tblspc/%u", DataDir, spc);
	if (realpath(dir, resolved))
		dir = pstrdup(resolved);
	e->tablespace_name = name;
	environment_mount(dir, &e->tablespace);
}

int64
environment_capture(Oid tablespace, const char *tablespace_name)
{
	EnvironmentFacts e;
	Oid			types[ENVIRONMENT_NARGS];
	Datum		values[ENVIRONMENT_NARGS];
	char		nulls[ENVIRONMENT_NARGS];
	int			n = 0;
	volatile int64 id = 0;
	const char *sql;
	OwnerSwitch sw;

#define ENV_TEXT(s) \
	(types[n] = TEXTOID, nulls[n] = (s) ? ' ' : 'n', \
	 values[n] = (s) ? CStringGetTextDatum(s) : (Datum) 0, n++)
#define ENV_INT4(v) \
	(types[n] = INT4OID, nulls[n] = (v) > 0 ? ' ' : 'n', values[n] = Int32GetDatum(v), n++)
#define ENV_INT8(v) \
	(types[n] = INT8OID, nulls[n] = (v) > 0 ? ' ' : 'n', values[n] = Int64GetDatum(v), n++)

	memset(&e, 0, sizeof(e));
	environment_os(&e);
	environment_tablespace(&e, tablespace, tablespace_name);

	ENV_TEXT(e.hostname);
	ENV_TEXT(e.sysname);
	ENV_TEXT(e.release);
	ENV_TEXT(e.version);
	ENV_TEXT(e.machine);
	ENV_TEXT(e.distribution);
	ENV_TEXT(e.cpu_model);
	ENV_INT4(e.cpu_count);
	ENV_INT8(e.memory_bytes);
	ENV_TEXT(e.virtualization);
	ENV_TEXT(e.data.fstype);
	ENV_TEXT(e.data.options);
	ENV_TEXT(e.data.device);
	ENV_TEXT(e.wal.fstype);
	ENV_TEXT(e.wal.options);
	ENV_TEXT(e.wal.device);
	ENV_INT4((int32) (sizeof(void *) * 8));
	types[n] = TEXTOID;
	nulls[n] = ' ';
	values[n++] = CStringGetTextDatum(environment_settings_json(&e));
	/* the key settings stay even at their defaults: the others then leave */
	{
		Datum		keys[lengthof(environment_key_settings)];
		int			nkeys = 0;

		while (environment_key_settings[nkeys] != NULL)
		{
			keys[nkeys] = CStringGetTextDatum(environment_key_settings[nkeys]);
			nkeys++;
		}
		types[n] = TEXTARRAYOID;
		nulls[n] = ' ';
		values[n++] = PointerGetDatum(construct_array(keys, nkeys, TEXTOID, -1, false, TYPALIGN_INT));
	}
	Assert(n == ENVIRONMENT_NARGS);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	sql = environment_has_provenance() ? environment_sql : environment_sql_before_05;
	/*
	 * Twice at most: a concurrent capture of the same environment that
	 * commits while we wait on its index entry is invisible to this
	 * statement's snapshot, and visible to the next one.  The settings were
	 * read above as the caller; the row is written as the extension's owner
	 * (runners only read pgbenchx.environments).
	 */
	owner_switch_begin(&sw);
	PG_TRY();
	{
		for (int attempt = 0; attempt < 2 && id == 0; attempt++)
		{
			int			rc = SPI_execute_with_args(sql, n, types, values, nulls,
												   false, 0);

			if (rc != SPI_OK_SELECT)
				elog(ERROR, "capturing the environment failed with %s", SPI_result_code_string(rc));
			if (SPI_processed > 0)
			{
				bool		isnull;
				Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

				if (!isnull)
					id = DatumGetInt64(d);
			}
		}
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	SPI_finish();
	if (id == 0)
		elog(ERROR, "the captured environment was neither inserted nor found");
	return id;
}

PG_FUNCTION_INFO_V1(pgbenchx_capture_environment);

/* pgbenchx.capture_environment(): capture now, return the environment_id */
Datum
pgbenchx_capture_environment(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(environment_capture(InvalidOid, NULL));
}
