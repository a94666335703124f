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

/* For each entry point that forwards open flags, and for its new
   version and its old version, open a file with O_DSYNC, O_SYNC, the
   O_SYNC of glibc before 2.12, O_RSYNC|O_DSYNC, O_RSYNC|O_SYNC and
   O_RSYNC alone, and check:

   - whether __O_RSYNC reached the kernel: a seccomp filter fails the
     openat and open_by_handle_at system calls that carry it with a
     marker error; both versions pass it only if the kernel implements
     O_RSYNC (an old version gets it only from a newer program through
     an older library, and treats it as the new one does);
   - that O_RSYNC alone still gives the writes of O_SYNC;
   - that the openat2 probe degrades when a seccomp filter answers
     EPERM for openat2;
   - that a strict refusal of O_RSYNC is still a cancellation point;
   - that glibc.io.legacy_osync=full widens the O_DSYNC of an old
     version only for a caller that needs no symbol version of glibc
     2.12 or later (tst-open-osync-mod.so, against the test program
     itself);
   - the flags the kernel kept (F_GETFL; for posix_spawn, in the child);
   - the tunables glibc.io.legacy_osync and glibc.io.rsync, read from
     GLIBC_TUNABLES, which the Makefile sets for the variants of this
     test.

   It also checks that aio_fsync still takes O_DSYNC and O_SYNC, and
   microblaze's old O_SYNC, the bare __O_FULLSYNC, and that each gives
   the operation it names (fdatasync for O_DSYNC, fsync for the
   others); and, in the fortify variant, that the calls of open,
   open64, openat and openat64 go through __open_2 and friends.  */

#include <aio.h>
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
#include <support/check.h>
#include <support/support.h>
#include <support/temp_file.h>
#include <support/xthread.h>
#include <support/xunistd.h>

/* The error the seccomp filter gives an open that carries __O_RSYNC.  */
#define MARKER_ERRNO ENOTNAM
/* The errors a seccomp filter gives fsync and fdatasync, so that the
   operation aio_fsync performed can be told from its error.  */
#define FSYNC_ERRNO ENOTUNIQ
#define FDATASYNC_ERRNO EREMCHG

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
# define OLD_O_SYNC_IS_DSYNC false
#else
# define OLD_O_SYNC __O_DSYNC
# define OLD_O_SYNC_IS_DSYNC true
#endif

/* The old open, called from a library that needs no symbol version of
   glibc 2.12 or later (tst-open-osync-mod.c).  */
extern int tst_open_osync_old_open (const char *, int);

/* The flag requests, with the meaning each has for the test.  */
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
#if TEST_COMPAT (libc, FIRST_VERSION_libc_open, @OSYNC_NODE_ID@)
# define HAVE_COMPAT 1
extern int compat_open (const char *, int, ...);
compat_symbol_reference (libc, compat_open, open, FIRST_VERSION_libc_open);
extern int compat___open (const char *, int, ...);
compat_symbol_reference (libc, compat___open, __open,
			 FIRST_VERSION_libc___open);
extern int compat_open64 (const char *, int, ...);
compat_symbol_reference (libc, compat_open64, open64,
			 FIRST_VERSION_libc_open64);
extern int compat___open64 (const char *, int, ...);
compat_symbol_reference (libc, compat___open64, __open64,
			 FIRST_VERSION_libc___open64);
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

/* posix_spawn opens the file in the child, which reports the flags of
   that descriptor as /proc shows them.  Returns the flags, or -1 with
   errno set to the error of posix_spawn_file_actions_addopen or of
   posix_spawn.  */
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
  char *argv[] = { (char *) "cat", (char *) "/proc/self/fdinfo/3", NULL };
  pid_t pid;
  ret = posix_spawn (&pid, "/bin/cat", &fa, NULL, argv, NULL);
  posix_spawn_file_actions_destroy (&fa);
  xclose (pipefd[1]);
  if (ret != 0)
    {
      xclose (pipefd[0]);
      errno = ret;
      return -1;
    }
  char buf[512];
  ssize_t n = read (pipefd[0], buf, sizeof buf - 1);
  xclose (pipefd[0]);
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  if (n <= 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      /* The child could not open the file (spawni reports an exec
	 failure only); treat it as an open error.  */
      errno = MARKER_ERRNO;
      return -1;
    }
  buf[n] = '\0';
  const char *p = strstr (buf, "flags:");
  TEST_VERIFY_EXIT (p != NULL);
  return strtol (p + strlen ("flags:"), NULL, 8);
}

/* The entry points.  ADDOPEN is set for
   posix_spawn_file_actions_addopen, whose flags are read in the
   child.  */
struct entry
{
  const char *name;
  bool compat;
  opener_fn open;
  addopen_fn addopen;
};

#define NEW(name) { #name, false, op_##name, NULL }
#if HAVE_COMPAT
/* The opener of the old version of NAME, which makes CALL.  */
# define OLD_OPENER(name, call)						      \
  static int op_compat_##name (int f) { return call; }
OLD_OPENER (open, compat_open (path, O_RDWR | f))
OLD_OPENER (__open, compat___open (path, O_RDWR | f))
OLD_OPENER (open64, compat_open64 (path, O_RDWR | f))
OLD_OPENER (__open64, compat___open64 (path, O_RDWR | f))
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
HANDLE_OPENER (op_compat_open_by_handle_at, compat_open_by_handle_at)
# define OLD(name) { #name "@old", true, op_compat_##name, NULL }
#endif

static const struct entry entries[] =
  {
    NEW (open), NEW (__open), NEW (open64), NEW (__open64), NEW (openat),
    NEW (openat64), NEW (__open_2), NEW (__open64_2), NEW (__openat_2),
    NEW (__openat64_2), NEW (mkostemp), NEW (mkostemp64), NEW (mkostemps),
    NEW (mkostemps64), NEW (shm_open), NEW (open_by_handle_at),
    { "posix_spawn_file_actions_addopen", false, NULL,
      posix_spawn_file_actions_addopen },
#if HAVE_COMPAT
    OLD (open), OLD (__open), OLD (open64), OLD (__open64),
# ifdef HAVE_COMPAT_OPEN64_2_2
    OLD (open64_2_2),
# endif
    OLD (openat), OLD (openat64), OLD (__open_2), OLD (__open64_2),
    OLD (__openat_2), OLD (__openat64_2), OLD (mkostemp), OLD (mkostemp64),
    OLD (mkostemps), OLD (mkostemps64), OLD (shm_open),
    OLD (open_by_handle_at),
    { "posix_spawn_file_actions_addopen@old", true, NULL, compat_addopen },
#endif
  };

/* What the test knows about its environment.  */
static bool kernel_rsync;	/* The kernel implements __O_RSYNC.  */
static bool legacy_full;	/* glibc.io.legacy_osync=full.  */
static bool rsync_strict;	/* glibc.io.rsync=strict.  */
static bool have_handle;	/* open_by_handle_at can be tested.  */

static bool
tunable_set (const char *setting)
{
  const char *t = getenv ("GLIBC_TUNABLES");
  return t != NULL && strstr (t, setting) != NULL;
}

/* Whether the kernel implements __O_RSYNC: open a file with it through
   openat2, which, unlike openat, refuses flags it does not know.  */
static bool
probe_kernel_rsync (void)
{
#ifdef SYS_openat2
  struct { uint64_t flags, mode, resolve; } how =
    { .flags = O_RDONLY | O_DSYNC | __O_RSYNC };
  long fd = syscall (SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd < 0)
    {
      TEST_VERIFY (errno == EINVAL || errno == ENOSYS);
      return false;
    }
  int fl = fcntl (fd, F_GETFL);
  xclose (fd);
  TEST_VERIFY (fl & __O_RSYNC);
  return true;
#else
  return false;
#endif
}

/* Make openat and open_by_handle_at fail with MARKER_ERRNO when their
   flags carry __O_RSYNC.  Returns false if seccomp is not available.  */
static bool
install_rsync_filter (void)
{
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 1, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_open_by_handle_at, 0, 3),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, LOW_WORD (2)),
      BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K, __O_RSYNC, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | MARKER_ERRNO),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { .len = array_length (filter),
			     .filter = filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      printf ("info: seccomp not available (%m); not checking what the "
	      "kernel received\n");
      return false;
    }
  return true;
}

/* Run every entry point with every request.  FILTERED says whether
   the seccomp filter is in place.  */
static void
check_all (bool filtered)
{
  for (size_t e = 0; e < array_length (entries); e++)
    for (size_t r = 0; r < array_length (requests); r++)
      {
	const struct entry *en = &entries[e];
	int f = requests[r].flags;
	if (!have_handle && strstr (en->name, "open_by_handle_at") != NULL)
	  continue;

	/* The rules of the new and the old versions alike; the old
	   versions widen an O_DSYNC under glibc.io.legacy_osync=full
	   only for a caller built before glibc 2.12, and this test
	   program is not one (see check_legacy_caller).  */
	bool rsync_req = (f & __O_RSYNC) != 0;
	bool reaches_kernel = rsync_req && kernel_rsync;
	bool einval = rsync_req && !kernel_rsync && rsync_strict;
	int want = f & (O_DSYNC | __O_FULLSYNC);
	if (rsync_req && (f & O_DSYNC) == 0)
	  want |= O_SYNC;
	if (reaches_kernel)
	  want |= __O_RSYNC;

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

	if (einval)
	  {
	    if (got != -1 || err != EINVAL)
	      FAIL ("%s (%s): want EINVAL (glibc.io.rsync=strict), got "
		    "%#o, errno %d", en->name, requests[r].name, got, err);
	  }
	else if (filtered && reaches_kernel)
	  {
	    if (got != -1 || err != MARKER_ERRNO)
	      FAIL ("%s (%s): __O_RSYNC did not reach the kernel",
		    en->name, requests[r].name);
	  }
	else if (got == -1)
	  FAIL ("%s (%s): failed with errno %d%s", en->name,
		requests[r].name, err,
		err == MARKER_ERRNO ? " (__O_RSYNC reached the kernel)" : "");
	else if ((got & SYNC_BITS) != want)
	  FAIL ("%s (%s): F_GETFL sync bits %#o, want %#o", en->name,
		requests[r].name, got & SYNC_BITS, want);
      }
}

static void
check_aio_fsync (void)
{
  int fd = xopen (path, O_RDWR, 0);
  /* The operation each request performs: in a new process (the aio
     helper threads it starts inherit the filter), fsync and fdatasync
     fail with errors of their own.  The process is made before this
     one uses aio, whose helper threads a child would not have.  */
  pid_t pid = xfork ();
  if (pid == 0)
    {
      struct sock_filter filter[] =
	{
	  BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
		    offsetof (struct seccomp_data, nr)),
	  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_fsync, 0, 1),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | FSYNC_ERRNO),
	  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_fdatasync, 0, 1),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | FDATASYNC_ERRNO),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
      struct sock_fprog prog = { .len = array_length (filter),
				 .filter = filter };
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
	  || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
	_exit (77);
      static const struct { int op; const char *name; int err; } want[] =
	{
	  { O_DSYNC, "O_DSYNC", FDATASYNC_ERRNO },
	  { O_SYNC, "O_SYNC", FSYNC_ERRNO },
	  { __O_FULLSYNC, "__O_FULLSYNC", FSYNC_ERRNO },
	};
      for (size_t i = 0; i < array_length (want); i++)
	{
	  struct aiocb cb = { .aio_fildes = fd };
	  const struct aiocb *list[] = { &cb };
	  TEST_COMPARE (aio_fsync (want[i].op, &cb), 0);
	  while (aio_error (&cb) == EINPROGRESS)
	    aio_suspend (list, 1, NULL);
	  int err = aio_error (&cb);
	  if (err != want[i].err)
	    FAIL ("aio_fsync (%s): %s, want %s", want[i].name,
		  err == FSYNC_ERRNO ? "fsync"
		  : err == FDATASYNC_ERRNO ? "fdatasync" : "neither",
		  want[i].err == FSYNC_ERRNO ? "fsync" : "fdatasync");
	}
      _exit (0);
    }
  int status;
  TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
  TEST_VERIFY (WIFEXITED (status));
  if (WEXITSTATUS (status) != 77)
    TEST_COMPARE (WEXITSTATUS (status), 0);

  static const int ops[] = { O_DSYNC, O_SYNC, __O_FULLSYNC };
  for (size_t i = 0; i < array_length (ops); i++)
    {
      struct aiocb cb = { .aio_fildes = fd };
      const struct aiocb *list[] = { &cb };
      TEST_COMPARE (aio_fsync (ops[i], &cb), 0);
      while (aio_error (&cb) == EINPROGRESS)
	aio_suspend (list, 1, NULL);
      TEST_COMPARE (aio_return (&cb), 0);
    }
  struct aiocb cb = { .aio_fildes = fd };
  errno = 0;
  TEST_COMPARE (aio_fsync (O_RDWR, &cb), -1);
  TEST_COMPARE (errno, EINVAL);

  xclose (fd);
}

/* In the fortify variant (tst-open-osync-fortify.c defines
   TEST_FORTIFIED), open, open64, openat and openat64 with flags that
   are not constant and no mode must go through __open_2 and friends,
   which refuse O_CREAT without a mode by aborting the process; the
   plain functions would create the file.  */
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
      pid_t pid = xfork ();
      if (pid == 0)
	{
	  /* No core file from the abort.  */
	  setrlimit (RLIMIT_CORE, &(struct rlimit) { 0, 0 });
	  /* Not a constant, or the call would not compile.  */
	  volatile int creat = O_CREAT;
	  int fd = fortified[i].open (creat);
	  _exit (fd >= 0 ? 0 : 1);
	}
      int status;
      TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
      if (!WIFSIGNALED (status) || WTERMSIG (status) != SIGABRT)
	FAIL ("%s with O_CREAT and no mode did not abort (status %#x): "
	      "the fortified function was not reached", fortified[i].name,
	      status);
    }
  printf ("info: open, open64, openat and openat64 went through their "
	  "fortified functions\n");
#endif
}

/* The old open from a caller that needs only symbol versions older
   than glibc 2.12: glibc.io.legacy_osync=full widens its O_DSYNC (the
   O_SYNC of its time) to O_SYNC; the same call from this program,
   which needs newer versions, keeps O_DSYNC (check_all).  */
static void
check_legacy_caller (void)
{
#if HAVE_COMPAT
  int fd = tst_open_osync_old_open (path, O_RDWR | __O_DSYNC);
  TEST_VERIFY_EXIT (fd >= 0);
  int fl = fcntl (fd, F_GETFL);
  xclose (fd);
  int want = __O_DSYNC;
  if (legacy_full && OLD_O_SYNC_IS_DSYNC)
    want |= __O_FULLSYNC;
  if ((fl & SYNC_BITS) != want)
    FAIL ("old open from a library built before 2.12, O_DSYNC: F_GETFL "
	  "sync bits %#o, want %#o", fl & SYNC_BITS, want);
#endif
}

/* A thread with a cancellation pending that opens with O_RSYNC: the
   open is a cancellation point whether it reaches the kernel or is
   refused (glibc.io.rsync=strict).  */
static void *
cancelled_open (void *closure)
{
  TEST_COMPARE (pthread_cancel (pthread_self ()), 0);
  int fd = open (path, O_RDWR | O_RSYNC | O_DSYNC);
  if (fd >= 0)
    xclose (fd);
  return (void *) (intptr_t) fd;
}

static void
check_cancellation (void)
{
  void *ret = xpthread_join (xpthread_create (NULL, cancelled_open, NULL));
  if (ret != PTHREAD_CANCELED)
    FAIL ("an open with O_RSYNC that returned %d did not act on a "
	  "pending cancellation", (int) (intptr_t) ret);
}

/* In a new process (the probe's answer is cached per process), a
   seccomp filter that answers EPERM for openat2, as allow-list
   sandboxes do for system calls they do not know, must make open
   degrade O_RSYNC, never fail or pass it blindly.  Returns false if
   seccomp is not available.  */
static bool
check_probe_eperm (void)
{
  pid_t pid = xfork ();
  if (pid == 0)
    {
      /* openat2 gets EPERM; an openat that carries __O_RSYNC gets the
	 marker error, so that passing the bit blindly is seen.  */
      struct sock_filter filter[] =
	{
	  BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
		    offsetof (struct seccomp_data, nr)),
	  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 1),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3),
	  BPF_STMT (BPF_LD | BPF_W | BPF_ABS, LOW_WORD (2)),
	  BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K, __O_RSYNC, 0, 1),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | MARKER_ERRNO),
	  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
      struct sock_fprog prog = { .len = array_length (filter),
				 .filter = filter };
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
	  || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
	_exit (77);
      int fd = open (path, O_RDWR | O_RSYNC | O_DSYNC);
      if (rsync_strict)
	{
	  if (fd != -1 || errno != EINVAL)
	    FAIL ("openat2 answers EPERM, glibc.io.rsync=strict: open "
		  "returned %d (errno %d), want EINVAL", fd, errno);
	  _exit (0);
	}
      if (fd < 0)
	FAIL_EXIT1 ("openat2 answers EPERM: open failed (errno %d%s)", errno,
		    errno == MARKER_ERRNO ? ": __O_RSYNC reached the kernel"
		    : "");
      int fl = fcntl (fd, F_GETFL);
      if ((fl & SYNC_BITS) != O_DSYNC)
	FAIL ("openat2 answers EPERM: F_GETFL sync bits %#o, want %#o "
	      "(O_RSYNC dropped)", fl & SYNC_BITS, O_DSYNC);
      _exit (0);
    }
  int status;
  TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
  TEST_VERIFY (WIFEXITED (status));
  if (WEXITSTATUS (status) == 77)
    return false;
  TEST_COMPARE (WEXITSTATUS (status), 0);
  return true;
}

static int
do_test (void)
{
  tmpdir = support_create_temp_directory ("tst-open-osync-");
  path = xasprintf ("%s/file", tmpdir);
  xclose (xopen (path, O_RDWR | O_CREAT, 0600));
  add_temp_file (path);

  kernel_rsync = probe_kernel_rsync ();
  legacy_full = tunable_set ("glibc.io.legacy_osync=full");
  rsync_strict = tunable_set ("glibc.io.rsync=strict");
  bool have_seccomp = check_probe_eperm ();
  printf ("info: kernel O_RSYNC %s, legacy_osync=%s, rsync=%s, "
	  "old versions %s\n", kernel_rsync ? "yes" : "no",
	  legacy_full ? "full" : "data", rsync_strict ? "strict" : "degrade",
	  HAVE_COMPAT ? "tested" : "absent on this port");

  /* A handle for open_by_handle_at, where the file system and the
     privileges allow it.  */
  handle = xmalloc (sizeof (*handle) + MAX_HANDLE_SZ);
  handle->handle_bytes = MAX_HANDLE_SZ;
  int mount_id;
  mount_fd = xopen (tmpdir, O_RDONLY | O_DIRECTORY, 0);
  have_handle = name_to_handle_at (AT_FDCWD, path, handle, &mount_id, 0) == 0;
  if (have_handle)
    {
      int fd = open_by_handle_at (mount_fd, handle, O_RDONLY);
      have_handle = fd >= 0;
      if (fd >= 0)
	xclose (fd);
    }
  if (!have_handle)
    printf ("info: open_by_handle_at not tested here (%m)\n");

  check_aio_fsync ();
  check_fortified ();
  check_legacy_caller ();
  check_cancellation ();

  /* Without the filter: what F_GETFL reports.  */
  check_all (false);

  /* With the filter, in a subprocess: what the kernel received.  */
  pid_t pid = xfork ();
  if (pid == 0)
    {
      /* Failures are recorded in memory shared with the parent.  */
      if (install_rsync_filter ())
	check_all (true);
      _exit (0);
    }
  int status;
  TEST_COMPARE (xwaitpid (pid, &status, 0), pid);
  TEST_VERIFY (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  free (handle);
  xclose (mount_fd);
  free (path);
  /* A part that could not run makes the whole test UNSUPPORTED (after
     the other parts have been checked), never a PASS.  */
  if (!have_seccomp)
    FAIL_UNSUPPORTED ("seccomp is not available: what the kernel "
		      "received was not checked");
  if (!have_handle)
    FAIL_UNSUPPORTED ("open_by_handle_at cannot be used here");
  return 0;
}

#include <support/test-driver.c>
