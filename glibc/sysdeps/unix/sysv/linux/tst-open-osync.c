/* Test the open flags of every entry point, new and old versions.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* Each entry point that forwards open flags, in its new version and
   its old versions, opens a file with O_DSYNC, O_SYNC, the O_SYNC of
   glibc before 2.12, O_RSYNC|O_DSYNC, O_RSYNC|O_SYNC and O_RSYNC
   alone, in each of these settings, each in a process of its own (the
   answer of glibc's probe is kept per process):

   - as it is: the flags the kernel kept (F_GETFL; for
     posix_spawn_file_actions_addopen, in the child);
   - under a seccomp filter that fails an openat or open_by_handle_at
     carrying __O_RSYNC with a marker error: whether the bit reached
     the kernel, which it must exactly when the kernel implements
     O_RSYNC;
   - the same, with the filter answering glibc's openat2 probe as a
     kernel that implements O_RSYNC does, so that the bit must reach
     the kernel whatever kernel runs the test;
   - the same, with the filter failing those opens with EOPNOTSUPP, as
     a kernel that implements O_RSYNC does for a file that cannot
     honour it: the open must be made again without __O_RSYNC, as a
     kernel without O_RSYNC would have opened the file, unless
     glibc.io.rsync=1 asks for the error;
   - with the filter answering the probe with EPERM, as a sandbox
     does: O_RSYNC must be dropped (or refused, with glibc.io.rsync=1),
     never passed blindly.

   O_RSYNC alone must keep the writes of O_SYNC.  It also checks:

   - that the open functions are cancellation points when they refuse
     O_RSYNC (glibc.io.rsync=1) as when they make the system call: the
     thread must be cancelled in the call itself, not at the next
     cancellation point;
   - under glibc.io.legacy_osync=1, on a port whose libc predates glibc
     2.12, that the old open widens O_DSYNC (the O_SYNC of glibc 2.11)
     for a caller whose newest symbol version is GLIBC_2.11
     (tst-open-osync-mod211.so) and not for one whose newest is
     GLIBC_2.12 (tst-open-osync-mod212.so), nor for this program;
   - that glibc.io.rsync and glibc.io.legacy_osync, which
     tst-open-osync-tunables checks as ld.so lists them, act as the
     environment (GLIBC_TUNABLES) of this test's variants says;
   - in the fortify variant, that open, open64, openat and openat64
     with non-constant flags go through __open_2 and friends.

   open_by_handle_at needs CAP_DAC_READ_SEARCH to open anything, so
   here it is checked only where it must fail before that check (the
   marker, EINVAL, EOPNOTSUPP); tst-open-osync-handle checks the rest,
   and is UNSUPPORTED without the capability.  */

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <first-versions.h>
#include <shlib-compat.h>
#include <array_length.h>
#include <support/capture_subprocess.h>
#include <support/check.h>
#include <support/support.h>
#include <support/temp_file.h>
#include <support/xthread.h>
#include <support/xunistd.h>

/* The error the seccomp filter gives an open that carries __O_RSYNC,
   when it marks what reached the kernel.  */
#define MARKER_ERRNO ENOTNAM

/* The openat2-only flag of a kernel that takes O_RSYNC only from
   openat2, in the upper 32 bits of open_how.flags (open-flags.c).  */
#define OPENAT2_RSYNC ((uint64_t) 1 << @OSYNC_OPENAT2_RSYNC_SHIFT@)

#define SYNC_BITS (O_DSYNC | __O_FULLSYNC | __O_RSYNC)

/* The low 32 bits of a system call argument, for seccomp filters.  */
#if __BYTE_ORDER == __LITTLE_ENDIAN
# define LOW_WORD(arg) (offsetof (struct seccomp_data, args[arg]))
#else
# define LOW_WORD(arg) (offsetof (struct seccomp_data, args[arg]) + 4)
#endif

/* glibc before 2.12 defined O_SYNC (and O_DSYNC and O_RSYNC) as the
   value of today's O_DSYNC, except on hppa, where O_SYNC was the bit
   that is __O_FULLSYNC today.  */
#ifdef __hppa__
# define OLD_O_SYNC __O_FULLSYNC
#else
# define OLD_O_SYNC __O_DSYNC
#endif

/* Whether glibc.io.legacy_osync=1 can widen anything: on ports whose
   libc predates 2.12 (so that programs built before 2.12 run there),
   and not on hppa, whose old O_SYNC was already file integrity.  */
#if !defined TEST_STATIC && !defined __hppa__ \
    && TEST_COMPAT (libc, GLIBC_2_0, GLIBC_2_12)
# define LEGACY_PORT 1
/* The old open, called from objects whose newest symbol version is
   GLIBC_2.11 and GLIBC_2.12.  */
extern int tst_open_osync_old_open_211 (const char *, int);
extern int tst_open_osync_old_open_212 (const char *, int);
#else
# define LEGACY_PORT 0
#endif

/* The flag requests.  */
static const struct request
{
  const char *name;
  int flags;
} requests[] =
  {
    { "O_DSYNC", O_DSYNC },
    { "O_SYNC", O_SYNC },
    { "O_SYNC before 2.12", OLD_O_SYNC },
    { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC },
    { "O_RSYNC|O_SYNC", O_RSYNC | O_SYNC },
    { "O_RSYNC alone", O_RSYNC },
  };

/* Entry points declared by no installed header.  */
extern int __open (const char *, int, ...);
extern int __open64 (const char *, int, ...);
extern int __open_2 (const char *, int);
extern int __open64_2 (const char *, int);
extern int __openat_2 (int, const char *, int);
extern int __openat64_2 (int, const char *, int);

/* The old versions.  */
#if !defined TEST_STATIC \
    && TEST_COMPAT (libc, FIRST_VERSION_libc_open, @OSYNC_NODE_ID@)
# define HAVE_COMPAT 1
extern int compat_open (const char *, int, ...);
compat_symbol_reference (libc, compat_open, open, FIRST_VERSION_libc_open);
extern int compat_open64 (const char *, int, ...);
compat_symbol_reference (libc, compat_open64, open64,
			 FIRST_VERSION_libc_open64);
# if TEST_COMPAT (libc, FIRST_VERSION_libc_open64, GLIBC_2_2)
/* The open64 that libpthread exported at GLIBC_2.2 on older ports.  */
#  define HAVE_COMPAT_OPEN64_2_2 1
extern int compat_open64_2_2 (const char *, int, ...);
compat_symbol_reference (libc, compat_open64_2_2, open64, GLIBC_2_2);
# endif
extern int compat_openat (int, const char *, int, ...);
compat_symbol_reference (libc, compat_openat, openat,
			 FIRST_VERSION_libc_openat);
extern int compat_openat64 (int, const char *, int, ...);
compat_symbol_reference (libc, compat_openat64, openat64,
			 FIRST_VERSION_libc_openat64);
extern int compat___open_2 (const char *, int);
compat_symbol_reference (libc, compat___open_2, __open_2,
			 FIRST_VERSION_libc___open_2);
extern int compat___open64_2 (const char *, int);
compat_symbol_reference (libc, compat___open64_2, __open64_2,
			 FIRST_VERSION_libc___open64_2);
extern int compat___openat_2 (int, const char *, int);
compat_symbol_reference (libc, compat___openat_2, __openat_2,
			 FIRST_VERSION_libc___openat_2);
extern int compat___openat64_2 (int, const char *, int);
compat_symbol_reference (libc, compat___openat64_2, __openat64_2,
			 FIRST_VERSION_libc___openat64_2);
extern int compat_mkostemp (char *, int);
compat_symbol_reference (libc, compat_mkostemp, mkostemp,
			 FIRST_VERSION_libc_mkostemp);
extern int compat_mkostemp64 (char *, int);
compat_symbol_reference (libc, compat_mkostemp64, mkostemp64,
			 FIRST_VERSION_libc_mkostemp64);
extern int compat_mkostemps (char *, int, int);
compat_symbol_reference (libc, compat_mkostemps, mkostemps,
			 FIRST_VERSION_libc_mkostemps);
extern int compat_mkostemps64 (char *, int, int);
compat_symbol_reference (libc, compat_mkostemps64, mkostemps64,
			 FIRST_VERSION_libc_mkostemps64);
extern int compat_shm_open (const char *, int, mode_t);
compat_symbol_reference (libc, compat_shm_open, shm_open, GLIBC_2_34);
# if TEST_COMPAT (libc, FIRST_VERSION_libc_shm_open, GLIBC_2_34)
/* The shm_open that librt had before it moved into libc.  */
#  define HAVE_COMPAT_SHM_OPEN_RT 1
extern int compat_shm_open_rt (const char *, int, mode_t);
compat_symbol_reference (libc, compat_shm_open_rt, shm_open,
			 FIRST_VERSION_libc_shm_open);
# endif
extern int compat_open_by_handle_at (int, struct file_handle *, int);
compat_symbol_reference (libc, compat_open_by_handle_at, open_by_handle_at,
			 FIRST_VERSION_libc_open_by_handle_at);
extern int compat_addopen (posix_spawn_file_actions_t *, int, const char *,
			   int, mode_t);
compat_symbol_reference (libc, compat_addopen,
			 posix_spawn_file_actions_addopen,
			 FIRST_VERSION_libc_posix_spawn_file_actions_addopen);
#else
# define HAVE_COMPAT 0
#endif

/* The file every opener opens (mkostemp and shm_open make their own).  */
static char *path;
static char *tmpdir;
static struct file_handle *handle;
/* A descriptor of TMPDIR, for open_by_handle_at, which finds the file
   system of the handle from it.  */
static int mount_fd = -1;

/* An opener opens something with FLAGS (never O_CREAT, so that the
   fortify variant of this test goes through __open_2 and friends) and
   returns the descriptor, or -1 with errno set.  */
typedef int (*opener_fn) (int flags);

static int op_open (int f) { return open (path, O_RDWR | f); }
static int op___open (int f) { return __open (path, O_RDWR | f); }
static int op_open64 (int f) { return open64 (path, O_RDWR | f); }
static int op___open64 (int f) { return __open64 (path, O_RDWR | f); }
static int op_openat (int f) { return openat (AT_FDCWD, path, O_RDWR | f); }
static int op_openat64 (int f)
{ return openat64 (AT_FDCWD, path, O_RDWR | f); }
static int op___open_2 (int f) { return __open_2 (path, O_RDWR | f); }
static int op___open64_2 (int f) { return __open64_2 (path, O_RDWR | f); }
static int op___openat_2 (int f)
{ return __openat_2 (AT_FDCWD, path, O_RDWR | f); }
static int op___openat64_2 (int f)
{ return __openat64_2 (AT_FDCWD, path, O_RDWR | f); }

/* mkostemp and friends create a file in the temporary directory.  */
static char *
template (const char *suffix)
{
  return xasprintf ("%s/tst-open-osync-XXXXXX%s", tmpdir, suffix);
}
#define MKOSTEMP_OPENER(name, fn)					      \
  static int name (int f)						      \
  {									      \
    char *t = template ("");						      \
    int fd = fn (t, f);							      \
    int err = errno;							      \
    unlink (t);								      \
    free (t);								      \
    errno = err;							      \
    return fd;								      \
  }
#define MKOSTEMPS_OPENER(name, fn)					      \
  static int name (int f)						      \
  {									      \
    char *t = template (".s");						      \
    int fd = fn (t, 2, f);						      \
    int err = errno;							      \
    unlink (t);								      \
    free (t);								      \
    errno = err;							      \
    return fd;								      \
  }
MKOSTEMP_OPENER (op_mkostemp, mkostemp)
MKOSTEMP_OPENER (op_mkostemp64, mkostemp64)
MKOSTEMPS_OPENER (op_mkostemps, mkostemps)
MKOSTEMPS_OPENER (op_mkostemps64, mkostemps64)

#define SHM_OPENER(name, fn)						      \
  static int name (int f)						      \
  {									      \
    char *n = xasprintf ("/tst-open-osync-%d", (int) getpid ());	      \
    int fd = fn (n, O_RDWR | O_CREAT | f, 0600);			      \
    int err = errno;							      \
    shm_unlink (n);							      \
    free (n);								      \
    errno = err;							      \
    return fd;								      \
  }
SHM_OPENER (op_shm_open, shm_open)

#define HANDLE_OPENER(name, fn)						      \
  static int name (int f)						      \
  {									      \
    return fn (mount_fd, handle, O_RDWR | f);				      \
  }
HANDLE_OPENER (op_open_by_handle_at, open_by_handle_at)

/* posix_spawn must execute a program for the file action to take
   effect.  It runs this program again, whose constructor below then
   reports the flags of descriptor 3 and exits.  */
#define REPORT_ENV "TST_OPEN_OSYNC_REPORT_FD3"
static char *self_exe;
static char **self_argv;
static char **report_envp;

static void __attribute__ ((constructor))
report_descriptor_3 (void)
{
  if (getenv (REPORT_ENV) == NULL)
    return;
  int fl = fcntl (3, F_GETFL);
  printf ("%d\n", fl);
  fflush (stdout);
  _exit (fl < 0);
}

/* What posix_spawn needs to run this program again: its executable,
   its command line (the dynamic loader's, if the test runs through
   it) and the environment, with REPORT_ENV added.  */
static void
prepare_self (void)
{
  support_need_proc ("posix_spawn runs this program again, through "
		     "/proc/self/exe and /proc/self/cmdline");
  self_exe = xreadlink ("/proc/self/exe");
  int fd = xopen ("/proc/self/cmdline", O_RDONLY, 0);
  size_t size = 0, len = 0;
  char *buf = NULL;
  while (true)
    {
      if (len == size)
	{
	  size = size * 2 + 256;
	  buf = xrealloc (buf, size);
	}
      ssize_t n = read (fd, buf + len, size - len);
      TEST_VERIFY_EXIT (n >= 0);
      if (n == 0)
	break;
      len += n;
    }
  xclose (fd);
  TEST_VERIFY_EXIT (len > 0 && buf[len - 1] == '\0');
  size_t argc = 0;
  for (size_t i = 0; i < len; i++)
    argc += buf[i] == '\0';
  self_argv = xcalloc (argc + 1, sizeof (char *));
  for (size_t i = 0, a = 0; a < argc; a++)
    {
      self_argv[a] = buf + i;
      i += strlen (buf + i) + 1;
    }
  size_t envc = 0;
  while (environ[envc] != NULL)
    envc++;
  report_envp = xcalloc (envc + 2, sizeof (char *));
  memcpy (report_envp, environ, envc * sizeof (char *));
  report_envp[envc] = (char *) REPORT_ENV "=1";
}

/* Add an action that opens PATH with O_RDWR | F to descriptor 3, run
   this program with it, and return the flags it reports, or -1 with
   errno set to the error of ADDOPEN or of posix_spawn.  */
typedef int (*addopen_fn) (posix_spawn_file_actions_t *, int, const char *,
			   int, mode_t);
static int
spawn_flags (addopen_fn addopen, int f)
{
  posix_spawn_file_actions_t fa;
  TEST_COMPARE (posix_spawn_file_actions_init (&fa), 0);
  int ret = addopen (&fa, 3, path, O_RDWR | f, 0);
  if (ret != 0)
    {
      posix_spawn_file_actions_destroy (&fa);
      errno = ret;
      return -1;
    }
  int pipefd[2];
  xpipe (pipefd);
  TEST_COMPARE (posix_spawn_file_actions_adddup2 (&fa, pipefd[1], 1), 0);
  pid_t pid;
  ret = posix_spawn (&pid, self_exe, &fa, NULL, self_argv, report_envp);
  posix_spawn_file_actions_destroy (&fa);
  xclose (pipefd[1]);
  if (ret != 0)
    {
      xclose (pipefd[0]);
      errno = ret;
      return -1;
    }
  char buf[64];
  ssize_t n = read (pipefd[0], buf, sizeof buf - 1);
  xclose (pipefd[0]);
  int status;
  TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
  if (n <= 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    FAIL_EXIT1 ("the program that posix_spawn ran did not report the "
		"flags of descriptor 3 (status %#x)", status);
  buf[n] = '\0';
  return atoi (buf);
}

/* The entry points.  ADDOPEN is set for
   posix_spawn_file_actions_addopen, whose flags are read in the
   child.  */
struct entry
{
  const char *name;
  opener_fn open;
  addopen_fn addopen;
  bool handle;		/* open_by_handle_at.  */
  bool cancellable;	/* A cancellation point.  */
};

#define NEW(name, cancellable) \
  { #name, op_##name, NULL, false, cancellable }
#if HAVE_COMPAT
/* The opener of the old version of NAME, which makes CALL.  */
# define OLD_OPENER(name, call)						      \
  static int op_compat_##name (int f) { return call; }
OLD_OPENER (open, compat_open (path, O_RDWR | f))
OLD_OPENER (open64, compat_open64 (path, O_RDWR | f))
# ifdef HAVE_COMPAT_OPEN64_2_2
OLD_OPENER (open64_2_2, compat_open64_2_2 (path, O_RDWR | f))
# endif
OLD_OPENER (openat, compat_openat (AT_FDCWD, path, O_RDWR | f))
OLD_OPENER (openat64, compat_openat64 (AT_FDCWD, path, O_RDWR | f))
OLD_OPENER (__open_2, compat___open_2 (path, O_RDWR | f))
OLD_OPENER (__open64_2, compat___open64_2 (path, O_RDWR | f))
OLD_OPENER (__openat_2, compat___openat_2 (AT_FDCWD, path, O_RDWR | f))
OLD_OPENER (__openat64_2,
	    compat___openat64_2 (AT_FDCWD, path, O_RDWR | f))
MKOSTEMP_OPENER (op_compat_mkostemp, compat_mkostemp)
MKOSTEMP_OPENER (op_compat_mkostemp64, compat_mkostemp64)
MKOSTEMPS_OPENER (op_compat_mkostemps, compat_mkostemps)
MKOSTEMPS_OPENER (op_compat_mkostemps64, compat_mkostemps64)
SHM_OPENER (op_compat_shm_open, compat_shm_open)
# ifdef HAVE_COMPAT_SHM_OPEN_RT
SHM_OPENER (op_compat_shm_open_rt, compat_shm_open_rt)
# endif
HANDLE_OPENER (op_compat_open_by_handle_at, compat_open_by_handle_at)
# define OLD(name, cancellable) \
  { #name "@old", op_compat_##name, NULL, false, cancellable }
#endif

static const struct entry entries[] =
  {
    NEW (open, true), NEW (__open, true), NEW (open64, true),
    NEW (__open64, true), NEW (openat, true), NEW (openat64, true),
    NEW (__open_2, true), NEW (__open64_2, true), NEW (__openat_2, true),
    NEW (__openat64_2, true), NEW (mkostemp, true), NEW (mkostemp64, true),
    NEW (mkostemps, true), NEW (mkostemps64, true), NEW (shm_open, false),
    { "posix_spawn_file_actions_addopen", NULL,
      posix_spawn_file_actions_addopen, false, false },
    { "open_by_handle_at", op_open_by_handle_at, NULL, true, true },
#if HAVE_COMPAT
    OLD (open, true), OLD (open64, true),
#  ifdef HAVE_COMPAT_OPEN64_2_2
    OLD (open64_2_2, true),
#  endif
    OLD (openat, true), OLD (openat64, true), OLD (__open_2, true),
    OLD (__open64_2, true), OLD (__openat_2, true), OLD (__openat64_2, true),
    OLD (mkostemp, true), OLD (mkostemp64, true), OLD (mkostemps, true),
    OLD (mkostemps64, true), OLD (shm_open, false),
#  ifdef HAVE_COMPAT_SHM_OPEN_RT
    OLD (shm_open_rt, false),
#  endif
    { "posix_spawn_file_actions_addopen@old", NULL, compat_addopen, false,
      false },
    { "open_by_handle_at@old", op_compat_open_by_handle_at, NULL, true,
      true },
#endif
  };

/* tst-open-osync-handle runs the calls of open_by_handle_at alone.  */
#ifdef TEST_HANDLE
static const bool handle_only = true;
#else
static const bool handle_only = false;
#endif

/* What the test knows about its environment.  */
/* How the kernel takes __O_RSYNC: not at all, as the open flag bit,
   or only from openat2 as OPENAT2_RSYNC, the way glibc's probe finds
   out.  */
enum carrier { carrier_none, carrier_open, carrier_openat2 };
static const char *const carrier_names[] =
  {
    [carrier_none] = "no",
    [carrier_open] = "yes (carrier open)",
    [carrier_openat2] = "yes (carrier openat2)",
  };
static enum carrier kernel_carrier;
static bool legacy_full;	/* glibc.io.legacy_osync=1.  */
static bool rsync_strict;	/* glibc.io.rsync=1.  */
static bool have_handle;	/* open_by_handle_at can open the file.  */

/* Whether GLIBC_TUNABLES sets the tunable NAME to 1.  */
static bool
tunable_set (const char *name)
{
  const char *t = getenv ("GLIBC_TUNABLES");
  if (t == NULL)
    return false;
  char *setting = xasprintf ("%s=1", name);
  const char *p = strstr (t, setting);
  bool set = p != NULL && (p == t || p[-1] == ':')
    && (p[strlen (setting)] == '\0' || p[strlen (setting)] == ':');
  free (setting);
  return set;
}

/* The error of openat2 with FLAGS on an empty path (0 if it opened
   something).  */
static int
probe_flags (const char *what, uint64_t flags)
{
#ifdef SYS_openat2
  struct { uint64_t flags, mode, resolve; } how = { .flags = flags };
  errno = 0;
  long int r = syscall (SYS_openat2, AT_FDCWD, "", &how, sizeof how);
  int err = r >= 0 ? 0 : errno;
  printf ("info: openat2 probe, %s: %s\n", what,
	  r >= 0 ? "opened" : strerror (err));
  if (r >= 0)
    xclose (r);
  return err;
#else
  return ENOSYS;
#endif
}

/* How the kernel takes __O_RSYNC, found out as glibc does: openat2
   refuses flags it does not know (EINVAL), and fails with ENOENT on an
   empty path if it knows them all; the open flag bit is asked first.
   Any other answer (a sandbox's EPERM, ENOSYS before Linux 5.6) counts
   as no.  */
static enum carrier
probe_kernel_rsync (void)
{
  int err = probe_flags ("the open flag bit", O_RDONLY | O_DSYNC | __O_RSYNC);
  if (err == ENOENT)
    return carrier_open;
  if (err == EINVAL
      && probe_flags ("OPENAT2_RSYNC", O_RDONLY | O_DSYNC | OPENAT2_RSYNC)
	 == ENOENT)
    return carrier_openat2;
  return carrier_none;
}

/* The settings of check_all.  */
enum filter
{
  filter_none,		/* No seccomp filter.  */
  filter_marker,	/* O_RSYNC in the kernel: MARKER_ERRNO.  */
  filter_yes_marker,	/* The same; the probe answers yes.  */
  filter_yes_eopnotsupp, /* The probe answers yes; O_RSYNC: EOPNOTSUPP.  */
  filter_probe_eperm,	/* The probe gets EPERM; O_RSYNC: MARKER_ERRNO.  */
};
static const char *const filter_names[] =
  {
    [filter_none] = "no filter",
    [filter_marker] = "marker filter",
    [filter_yes_marker] = "marker filter, probe answers yes",
    [filter_yes_eopnotsupp] = "EOPNOTSUPP filter, probe answers yes",
    [filter_probe_eperm] = "marker filter, probe answers EPERM",
  };

/* Install the seccomp filter of setting FILTER.  Returns false if
   seccomp is not available.  */
static bool
install_filter (enum filter filter)
{
  /* openat2: the probe's answer, or allowed.  */
  unsigned int probe = filter == filter_probe_eperm ? SECCOMP_RET_ERRNO | EPERM
    : (filter == filter_yes_marker || filter == filter_yes_eopnotsupp)
    ? SECCOMP_RET_ERRNO | ENOENT : SECCOMP_RET_ALLOW;
  unsigned int rsync = filter == filter_yes_eopnotsupp
    ? SECCOMP_RET_ERRNO | EOPNOTSUPP : SECCOMP_RET_ERRNO | MARKER_ERRNO;
  struct sock_filter prog_filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, probe),
      /* The flags are the third argument of openat and of
	 open_by_handle_at.  */
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 1, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_open_by_handle_at, 0, 3),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, LOW_WORD (2)),
      BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K, __O_RSYNC, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, rsync),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { .len = array_length (prog_filter),
			     .filter = prog_filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return false;
  return true;
}

/* Run FN in a new process, under the filter of setting FILTER (the
   probe's answer is kept per process, and a filter stays for the life
   of the process).  Failures are recorded in memory shared with this
   process.  Returns false if seccomp is not available.  */
static bool
run_filtered (enum filter filter, void (*fn) (enum filter))
{
  fflush (stdout);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      if (filter != filter_none && !install_filter (filter))
	_exit (77);
      fn (filter);
      fflush (stdout);
      _exit (0);
    }
  int status;
  TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      printf ("info: seccomp is not available: %s not checked\n",
	      filter_names[filter]);
      return false;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    FAIL ("%s: the process ended with status %#x", filter_names[filter],
	  status);
  return true;
}

/* How the kernel counts as taking O_RSYNC under FILTER: the filters
   that answer every openat2 with ENOENT pass glibc's first probe, the
   one of the open flag bit.  */
static enum carrier
kernel_under (enum filter filter)
{
  switch (filter)
    {
    case filter_yes_marker:
    case filter_yes_eopnotsupp:
      return carrier_open;
    case filter_probe_eperm:
      return carrier_none;
    default:
      return kernel_carrier;
    }
}

/* Whether the kernel counts as implementing O_RSYNC under FILTER for
   the entry point EN: open_by_handle_at, with no openat2 counterpart,
   only where O_RSYNC is an open flag bit.  */
static bool
kernel_yes (enum filter filter, const struct entry *en)
{
  enum carrier c = kernel_under (filter);
  return c == carrier_open || (c == carrier_openat2 && !en->handle);
}

/* Run every entry point with every request under FILTER.  */
static void
check_all (enum filter filter)
{
  int checked = 0, skipped = 0;
  for (size_t e = 0; e < array_length (entries); e++)
    for (size_t r = 0; r < array_length (requests); r++)
      {
	const struct entry *en = &entries[e];
	int f = requests[r].flags;
	if (handle_only && !en->handle)
	  continue;

	/* The rules of the new and the old versions alike; the old
	   versions widen an O_DSYNC under glibc.io.legacy_osync=1 only
	   for a caller built before glibc 2.12, and this program is not
	   one (see check_legacy_callers).  */
	bool rsync_req = (f & __O_RSYNC) != 0;
	bool yes = kernel_yes (filter, en);
	/* Where the kernel takes O_RSYNC only from openat2, the open
	   functions make the open with openat2, which the filters pass:
	   no marker, no EOPNOTSUPP.  */
	bool by_openat = kernel_under (filter) == carrier_open;
	int want = f & (O_DSYNC | __O_FULLSYNC);
	int want_errno = 0;
	if (rsync_req && (f & O_DSYNC) == 0)
	  want |= O_SYNC;
	if (rsync_req && !yes && rsync_strict)
	  want_errno = EINVAL;
	else if (rsync_req && yes && by_openat
		 && filter == filter_yes_eopnotsupp)
	  {
	    /* Opened again without O_RSYNC, unless strict.  */
	    if (rsync_strict)
	      want_errno = EOPNOTSUPP;
	  }
	else if (rsync_req && yes && by_openat && filter != filter_none)
	  want_errno = MARKER_ERRNO;
	else if (rsync_req && yes)
	  want |= __O_RSYNC;

	/* open_by_handle_at opens nothing without CAP_DAC_READ_SEARCH,
	   but fails for the other reasons before the kernel checks.  */
	if (en->handle && want_errno == 0 && !have_handle)
	  {
	    skipped++;
	    continue;
	  }

	int got;
	errno = 0;
	if (en->addopen != NULL)
	  got = spawn_flags (en->addopen, f);
	else
	  {
	    int fd = en->open (f);
	    got = fd < 0 ? -1 : fcntl (fd, F_GETFL);
	    if (fd >= 0)
	      xclose (fd);
	  }
	int err = errno;
	checked++;

	if (want_errno != 0)
	  {
	    if (got != -1 || err != want_errno)
	      FAIL ("%s (%s), %s: want %s, got %#o (%s)", en->name,
		    requests[r].name, filter_names[filter],
		    strerrorname_np (want_errno), got,
		    got == -1 ? strerrorname_np (err) : "opened");
	  }
	else if (got == -1)
	  FAIL ("%s (%s), %s: failed with %s%s", en->name, requests[r].name,
		filter_names[filter], strerrorname_np (err),
		err == MARKER_ERRNO ? " (__O_RSYNC reached the kernel)" : "");
	else if ((got & SYNC_BITS) != want)
	  FAIL ("%s (%s), %s: F_GETFL sync bits %#o, want %#o", en->name,
		requests[r].name, filter_names[filter], got & SYNC_BITS,
		want);
      }
  printf ("info: %s: %d calls checked", filter_names[filter], checked);
  if (skipped > 0)
    printf (", %d of open_by_handle_at that must open the file left to "
	    "tst-open-osync-handle", skipped);
  printf ("\n");
}

/* A thread with a cancellation pending calls an entry point.  The
   stage it was in when it was cancelled tells whether the call itself
   acted on the cancellation.  */
static const struct entry *cancel_entry;
static int cancel_flags;
static volatile int cancel_stage;
static int cancelled_in;

enum { stage_call = 1, stage_after = 2, stage_end = 3 };

static void
cancel_cleanup (void *closure)
{
  cancelled_in = cancel_stage;
}

static void *
cancel_thread (void *closure)
{
  pthread_cleanup_push (cancel_cleanup, NULL);
  cancel_stage = stage_call;
  TEST_COMPARE (pthread_cancel (pthread_self ()), 0);
  int fd = cancel_entry->open (cancel_flags);
  cancel_stage = stage_after;
  /* Later cancellation points, which must not be the ones that act.  */
  if (fd >= 0)
    close (fd);
  pthread_testcancel ();
  cancel_stage = stage_end;
  pthread_cleanup_pop (0);
  return NULL;
}

/* Each entry point that is a cancellation point must act on a pending
   cancellation with O_RSYNC requested, whether it makes the system
   call or refuses O_RSYNC (glibc.io.rsync=1), which it does under the
   filter that answers the probe with EPERM.  */
static void
check_cancellation (enum filter filter)
{
  for (size_t e = 0; e < array_length (entries); e++)
    {
      if (!entries[e].cancellable || entries[e].open == NULL)
	continue;
      cancel_entry = &entries[e];
      cancel_flags = O_RSYNC | O_DSYNC;
      cancel_stage = 0;
      cancelled_in = 0;
      void *ret = xpthread_join (xpthread_create (NULL, cancel_thread, NULL));
      const char *what = rsync_strict && !kernel_yes (filter, &entries[e])
	? "refusing O_RSYNC" : "opening with O_RSYNC";
      if (ret != PTHREAD_CANCELED)
	FAIL ("%s, %s: the thread was not cancelled", entries[e].name, what);
      else if (cancelled_in != stage_call)
	FAIL ("%s, %s: the thread was cancelled %s, not in the call",
	      entries[e].name, what,
	      cancelled_in == stage_after ? "at a later cancellation point"
	      : "elsewhere");
    }
}

/* The old open called with O_DSYNC (the O_SYNC of glibc 2.11 and
   earlier) from objects whose newest symbol version is GLIBC_2.11 and
   GLIBC_2.12: glibc.io.legacy_osync=1 widens it to O_SYNC for the
   first only.  */
static void
check_legacy_callers (void)
{
#if LEGACY_PORT
  static const struct
  {
    const char *name;
    int (*open) (const char *, int);
    bool old;
  } callers[] =
    {
      { "GLIBC_2.11", tst_open_osync_old_open_211, true },
      { "GLIBC_2.12", tst_open_osync_old_open_212, false },
    };
  for (size_t i = 0; i < array_length (callers); i++)
    {
      int fd = callers[i].open (path, O_RDWR | O_DSYNC);
      TEST_VERIFY_EXIT (fd >= 0);
      int fl = fcntl (fd, F_GETFL);
      xclose (fd);
      int want = O_DSYNC;
      if (legacy_full && callers[i].old)
	want |= __O_FULLSYNC;
      if ((fl & SYNC_BITS) != want)
	FAIL ("old open with O_DSYNC from an object whose newest version is "
	      "%s: F_GETFL sync bits %#o, want %#o (readelf -V shows the "
	      "object's version needs)", callers[i].name, fl & SYNC_BITS,
	      want);
    }
  printf ("info: callers built before and after glibc 2.12 checked\n");
#elif defined TEST_STATIC
  printf ("info: a static program has no old versions to call\n");
#else
  printf ("info: no program built before glibc 2.12 runs on this port\n");
#endif
}

/* In the fortify variant (tst-open-osync-fortify.c defines
   TEST_FORTIFIED), open, open64, openat and openat64 with flags that
   are not constant and no mode must go through __open_2 and friends,
   which refuse O_CREAT without a mode by aborting the process with a
   message; the plain functions would create the file.  */
#ifdef TEST_FORTIFIED
static opener_fn fortified_opener;

static void
fortified_call (void *closure)
{
  setrlimit (RLIMIT_CORE, &(struct rlimit) { 0, 0 });
  /* Not a constant, or the call would not compile.  */
  volatile int creat = O_CREAT;
  int fd = fortified_opener (creat);
  _exit (fd >= 0 ? 0 : 1);
}
#endif

static void
check_fortified (void)
{
#ifdef TEST_FORTIFIED
  static const struct { opener_fn open; const char *name; } fortified[] =
    {
      { op_open, "open" }, { op_open64, "open64" },
      { op_openat, "openat" }, { op_openat64, "openat64" },
    };
  for (size_t i = 0; i < array_length (fortified); i++)
    {
      fortified_opener = fortified[i].open;
      struct support_capture_subprocess r
	= support_capture_subprocess (fortified_call, NULL);
      char *context = xasprintf ("%s with O_CREAT and no mode",
				 fortified[i].name);
      support_capture_subprocess_check (&r, context, -SIGABRT,
					sc_allow_stderr);
      if (strstr (r.err.buffer, "without mode") == NULL)
	FAIL ("%s: the fortified function's message is missing: %s",
	      context, r.err.buffer);
      free (context);
      support_capture_subprocess_free (&r);
    }
  printf ("info: open, open64, openat and openat64 went through their "
	  "fortified functions\n");
#endif
}

static int
do_test (void)
{
  tmpdir = support_create_temp_directory ("tst-open-osync-");
  path = xasprintf ("%s/file", tmpdir);
  xclose (xopen (path, O_RDWR | O_CREAT, 0600));
  add_temp_file (path);
  prepare_self ();

  kernel_carrier = probe_kernel_rsync ();
  legacy_full = tunable_set ("glibc.io.legacy_osync");
  rsync_strict = tunable_set ("glibc.io.rsync");
  printf ("info: kernel O_RSYNC %s, glibc.io.legacy_osync=%d, "
	  "glibc.io.rsync=%d, old versions %s\n",
	  carrier_names[kernel_carrier], legacy_full, rsync_strict,
	  HAVE_COMPAT ? "tested" : "absent");

  /* A handle for open_by_handle_at.  The calls that must fail before
     the kernel looks at it need no valid one.  */
  handle = xmalloc (sizeof (*handle) + MAX_HANDLE_SZ);
  handle->handle_bytes = MAX_HANDLE_SZ;
  int mount_id;
  mount_fd = xopen (tmpdir, O_RDONLY | O_DIRECTORY, 0);
  if (name_to_handle_at (AT_FDCWD, path, handle, &mount_id, 0) == 0)
    {
      int fd = open_by_handle_at (mount_fd, handle, O_RDONLY);
      have_handle = fd >= 0;
      if (fd >= 0)
	xclose (fd);
      else
	printf ("info: open_by_handle_at: %m\n");
    }
  else
    {
      printf ("info: name_to_handle_at: %m\n");
      handle->handle_bytes = 8;
      handle->handle_type = 1;
      memset (handle->f_handle, 0, 8);
    }

  if (handle_only && !have_handle)
    FAIL_UNSUPPORTED ("open_by_handle_at cannot open a file here (it "
		      "needs CAP_DAC_READ_SEARCH)");
  if (!handle_only)
    {
      check_fortified ();
      check_legacy_callers ();
      /* Refusing O_RSYNC needs a kernel without it, which the filter
	 that answers the probe with EPERM stands for.  */
      if (!run_filtered (filter_probe_eperm, check_cancellation))
	check_cancellation (filter_none);
    }

  bool have_seccomp = true;
  static const enum filter filters[] =
    {
      filter_none, filter_marker, filter_yes_marker, filter_yes_eopnotsupp,
      filter_probe_eperm,
    };
  for (size_t i = 0; i < array_length (filters); i++)
    have_seccomp &= run_filtered (filters[i], check_all);

  free (handle);
  xclose (mount_fd);
  free (path);
  /* A part that could not run makes the whole test UNSUPPORTED (after
     the other parts have been checked), never a PASS.  */
  if (!have_seccomp)
    FAIL_UNSUPPORTED ("seccomp is not available: what the kernel "
		      "received was not checked");
  return 0;
}

/* Slow emulators (qemu-system) need more than the default.  */
#define TIMEOUT 60
#include <support/test-driver.c>
