/* syncbench: what synchronized I/O costs, per operation, on one file.
   Usage: syncbench [--dir DIR] [--seconds S | --count N] [--warmup N]
                    [--methods LIST] [--csv] [--list] [--force-rsync]
                    [--elsewhere MIB] [--disk DEV]
   Measures 8 KiB overwrites and appends with no sync, O_DSYNC, O_SYNC,
   fdatasync and fsync, and, where the kernel implements O_RSYNC,
   O_RSYNC|O_DSYNC reads of a clean range and of a range another
   process has just dirtied, next to a plain read and to the same done
   by hand (fdatasync, then read; an io_uring fsync of the range read,
   IORING_OP_FSYNC with an offset and a length, linked to the read), and
   RWF_RSYNC reads (preadv2) of such a range.  Prints operations per second and the
   median and 99th-percentile latency of each.  With --elsewhere, the
   process that dirties the range also leaves MIB MiB dirty elsewhere in
   the file before each read: what fdatasync must write and O_RSYNC,
   which syncs only the range read, need not.  With --disk, the status
   also gives the disk requests per operation (/sys/block/DEV/stat).
   The flags come from <fcntl.h>: built against the patched glibc's
   headers, O_RSYNC is a flag of its own; against the unpatched ones it
   is O_SYNC.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "disk-stat.h"
#include "uring.h"

/* The kernel's bit for O_RSYNC, which the probe passes to openat2
   directly (the unpatched headers have no such bit: their O_RSYNC is
   O_SYNC).  Its value is the project's fact OSYNC_RSYNC_BIT, which
   bench/syncbench.sh passes as -DOSYNC_RSYNC_BIT=...; by hand:
     cc -DOSYNC_RSYNC_BIT=$(driver/facts.py get OSYNC_RSYNC_BIT) ...  */
#ifndef OSYNC_RSYNC_BIT
# error "compile with -DOSYNC_RSYNC_BIT=$(driver/facts.py get OSYNC_RSYNC_BIT)"
#endif
#ifndef __O_RSYNC
# define __O_RSYNC OSYNC_RSYNC_BIT
#elif __O_RSYNC != OSYNC_RSYNC_BIT
# error "the headers' __O_RSYNC is not the bit of the facts file"
#endif
#ifndef SYS_openat2
# define SYS_openat2 437
#endif
/* RWF_RSYNC, the project's fact OSYNC_RWF_RSYNC (-DOSYNC_RWF_RSYNC=...);
   without it the RWF_RSYNC method is not measured.  */
#ifdef OSYNC_RWF_RSYNC
# define RWF_RSYNC_BIT OSYNC_RWF_RSYNC
#else
# define RWF_RSYNC_BIT 0
#endif

/* statfs f_type of the file systems that keep everything in memory,
   so that a sync has nothing to wait for.  */
#define SB_TMPFS_MAGIC 0x01021994u
#define SB_RAMFS_MAGIC 0x858458f6u

#define BLOCK 8192                      /* bytes per operation */
#define FILE_SIZE (1024 * 1024)         /* the file overwrites go to */
#define APPEND_LIMIT (8 * 1024 * 1024)  /* appends before truncating back */
#define PROGRESS_AFTER_NS 2000000000ull /* progress lines after 2 s */
#define ELSEWHERE_CHUNK (1024 * 1024)   /* --elsewhere writes, each */

enum sync_kind { S_NONE, S_ODSYNC, S_OSYNC, S_FDATASYNC, S_FSYNC, S_ORSYNC,
                 S_RWFRSYNC, S_URING_FSYNC };
enum op_kind { OP_OVERWRITE, OP_APPEND, OP_READ_CLEAN, OP_READ_DIRTY };

struct method
{
  const char *name;
  enum op_kind op;
  enum sync_kind sync;
  const char *what;
};

static const struct method methods[] = {
  { "overwrite", OP_OVERWRITE, S_NONE, "pwrite 8 KiB at offset 0, no sync" },
  { "overwrite-o_dsync", OP_OVERWRITE, S_ODSYNC, "same, file opened O_DSYNC" },
  { "overwrite-o_sync", OP_OVERWRITE, S_OSYNC, "same, file opened O_SYNC" },
  { "overwrite-fdatasync", OP_OVERWRITE, S_FDATASYNC, "pwrite, then fdatasync" },
  { "overwrite-fsync", OP_OVERWRITE, S_FSYNC, "pwrite, then fsync" },
  { "append", OP_APPEND, S_NONE, "pwrite 8 KiB at the end of the file, no sync" },
  { "append-o_dsync", OP_APPEND, S_ODSYNC, "same, file opened O_DSYNC" },
  { "append-o_sync", OP_APPEND, S_OSYNC, "same, file opened O_SYNC" },
  { "append-fdatasync", OP_APPEND, S_FDATASYNC, "append, then fdatasync" },
  { "append-fsync", OP_APPEND, S_FSYNC, "append, then fsync" },
  { "read", OP_READ_CLEAN, S_NONE,
    "pread 8 KiB of a clean range, plain (the yardstick of the next)" },
  { "read-o_rsync-clean", OP_READ_CLEAN, S_ORSYNC,
    "pread 8 KiB of a clean range, file opened O_RSYNC|O_DSYNC" },
  { "read-o_rsync-dirty", OP_READ_DIRTY, S_ORSYNC,
    "same, of a range another process wrote (no sync) just before" },
  { "read-dirty-fdatasync", OP_READ_DIRTY, S_FDATASYNC,
    "the same by hand: fdatasync, then a plain pread of the range" },
  { "read-rwf_rsync-dirty", OP_READ_DIRTY, S_RWFRSYNC,
    "the same dirty range, preadv2 with RWF_RSYNC of a plain descriptor" },
  { "read-dirty-uring-fsync", OP_READ_DIRTY, S_URING_FSYNC,
    "the same by hand, ranged: io_uring fsync (datasync) of the 8 KiB, "
    "linked to the read" },
};
#define NMETHODS (sizeof methods / sizeof methods[0])

struct result
{
  int measured;         /* 1: the numbers below are valid */
  double ops_per_sec, p50_us, p99_us;
  char status[200];
};

/* Options.  */
static const char *opt_dir = ".";
static double opt_seconds = 2.0;
static long opt_count = 0;       /* 0: run for opt_seconds */
static long opt_warmup = 20;
static int opt_csv = 0;
static int opt_force_rsync = 0;
static long opt_elsewhere = 0;   /* MiB dirtied past the range read */
static const char *opt_disk = NULL;

static char file_path[4096];     /* the test file, removed at exit */
static unsigned char *buf;
static uint64_t run_start_ns;
static uint64_t last_progress_ns;
static int progress_shown;

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* "No such file or directory (ENOENT)".  */
static const char *
errtext (int e)
{
  static char text[160];
  const char *name = strerrorname_np (e);
  snprintf (text, sizeof text, "%s (%s)", strerror (e), name ? name : "?");
  return text;
}

static void
setstatus (struct result *r, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->status, sizeof r->status, fmt, ap);
  va_end (ap);
}

static void
remove_file (void)
{
  if (file_path[0] != '\0')
    unlink (file_path);
}

static void
on_signal (int sig)
{
  if (file_path[0] != '\0')
    unlink (file_path);
  signal (sig, SIG_DFL);
  raise (sig);
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile P (0 < P <= 1) of the N sorted samples.  */
static uint64_t
percentile (const uint64_t *v, size_t n, double p)
{
  size_t rank = (size_t) (p * (double) n + 0.999999);
  if (rank < 1)
    rank = 1;
  if (rank > n)
    rank = n;
  return v[rank - 1];
}

/* The smallest step of the clock that times the operations, in ns,
   seen over some thousand readings: a clock that advances only at the
   timer tick (a kernel that fell back to the jiffies clocksource, as
   an emulated machine whose TSC could not be calibrated does) times
   most operations as 0 and a few as a whole tick, which makes every
   latency in the report meaningless.  */
static uint64_t
clock_step_ns (void)
{
  uint64_t best = UINT64_MAX, prev = now_ns (), start = prev;
  for (int i = 0; i < 100000 && now_ns () - start < 100000000ull; i++)
    {
      uint64_t t = now_ns ();
      if (t != prev && t - prev < best)
        best = t - prev;
      prev = t;
    }
  return best;
}

static void
progress (const char *name, size_t done, uint64_t now)
{
  /* Each second on a terminal, where it is one line rewritten; each
     ten seconds in a log.  */
  static int tty = -1;
  if (tty < 0)
    tty = isatty (STDERR_FILENO);
  if (now - run_start_ns < PROGRESS_AFTER_NS
      || now - last_progress_ns < (tty ? 1 : 10) * 1000000000ull)
    return;
  last_progress_ns = now;
  if (tty)
    fprintf (stderr, "\rsyncbench: %.0f s: %s: %zu operations\033[K",
             (double) (now - run_start_ns) / 1e9, name, done);
  else
    fprintf (stderr, "syncbench: %.0f s: %s: %zu operations\n",
             (double) (now - run_start_ns) / 1e9, name, done);
  progress_shown = 1;
}

static void
progress_end (void)
{
  if (progress_shown && isatty (STDERR_FILENO))
    fputs ("\r\033[K", stderr);
  progress_shown = 0;
}

/* Write LEN bytes of BUF at OFF, all of them.  */
static int
pwrite_all (int fd, const void *p, size_t len, off_t off)
{
  ssize_t n = pwrite (fd, p, len, off);
  if (n == (ssize_t) len)
    return 0;
  if (n >= 0)
    errno = EIO;    /* a short write of 8 KiB to a regular file */
  return -1;
}

/* Make the test file FILE_SIZE bytes long and on the disk, so that a
   method starts from a clean file whatever the one before left.  */
static int
reset_file (int fd)
{
  return ftruncate (fd, FILE_SIZE) == 0 && fsync (fd) == 0 ? 0 : -1;
}

/* The child that dirties the range before each O_RSYNC read: for each
   byte it reads from TOKENS it writes the range (no sync), and
   --elsewhere MiB past the file's first FILE_SIZE bytes, and answers
   on ACKS.  */
static void
dirtier (int tokens, int acks)
{
  int fd = open (file_path, O_WRONLY);
  unsigned char c;
  uint64_t gen = 0;
  unsigned char *big = opt_elsewhere > 0 ? malloc (ELSEWHERE_CHUNK) : NULL;
  if (big != NULL)
    memset (big, 'e', ELSEWHERE_CHUNK);
  while (read (tokens, &c, 1) == 1)
    {
      gen++;
      memcpy (buf, &gen, sizeof gen);
      int ok = fd >= 0 && pwrite_all (fd, buf, BLOCK, 0) == 0
               && (opt_elsewhere == 0 || big != NULL);
      for (long i = 0; ok && i < opt_elsewhere; i++)
        ok = pwrite_all (fd, big, ELSEWHERE_CHUNK,
                         FILE_SIZE + (off_t) i * ELSEWHERE_CHUNK) == 0;
      c = ok ? 'k' : 'e';
      if (write (acks, &c, 1) != 1)
        break;
    }
  _exit (0);
}

/* Measure method M.  Returns 0, or -1 on an I/O error (status says
   which).  */
static int
measure (const struct method *m, struct result *r)
{
  int flags;
  switch (m->sync)
    {
    case S_ODSYNC: flags = O_WRONLY | O_DSYNC; break;
    case S_OSYNC: flags = O_WRONLY | O_SYNC; break;
    case S_ORSYNC: flags = O_RDONLY | O_RSYNC | O_DSYNC; break;
    default: flags = m->op == OP_READ_CLEAN || m->op == OP_READ_DIRTY
        ? O_RDONLY : O_WRONLY; break;
    }

  /* Start from a clean file of FILE_SIZE bytes.  */
  int setup = open (file_path, O_RDWR);
  if (setup < 0 || reset_file (setup) != 0)
    {
      setstatus (r, "error: preparing %s: %s", file_path, errtext (errno));
      if (setup >= 0)
        close (setup);
      return -1;
    }

  int fd = open (file_path, flags);
  if (fd < 0)
    {
      setstatus (r, "error: open(0%o): %s", (unsigned) flags, errtext (errno));
      close (setup);
      return -1;
    }

  /* Did the kernel keep what was asked?  */
  char kept[100] = "";
  int fl = fcntl (fd, F_GETFL);
  int want = flags & (O_SYNC | O_DSYNC | __O_RSYNC);
  if (fl >= 0 && (fl & want) != want)
    snprintf (kept, sizeof kept, "; kernel kept only 0%o of 0%o",
              (unsigned) (fl & want), (unsigned) want);

  size_t cap = opt_count > 0 ? (size_t) opt_count : 4096;
  uint64_t *lat = malloc (cap * sizeof *lat);
  if (lat == NULL)
    {
      setstatus (r, "error: out of memory for %zu samples", cap);
      close (fd);
      close (setup);
      return -1;
    }

  int tokens[2] = { -1, -1 }, acks[2] = { -1, -1 };
  pid_t child = -1;
  if (m->op == OP_READ_DIRTY)
    {
      if (pipe (tokens) != 0 || pipe (acks) != 0)
        {
          setstatus (r, "error: pipe: %s", errtext (errno));
          free (lat);
          close (fd);
          close (setup);
          return -1;
        }
      fflush (NULL);
      child = fork ();
      if (child < 0)
        {
          setstatus (r, "error: fork: %s", errtext (errno));
          free (lat);
          close (fd);
          close (setup);
          return -1;
        }
      if (child == 0)
        {
          close (tokens[1]);
          close (acks[0]);
          dirtier (tokens[0], acks[1]);
        }
      close (tokens[0]);
      close (acks[1]);
    }

  struct uring ring = { .fd = -1 };
  if (m->sync == S_URING_FSYNC && uring_init (&ring, 4, 0) != 0)
    {
      setstatus (r, "error: io_uring_setup: %s", errtext (errno));
      free (lat);
      close (fd);
      close (setup);
      return -1;
    }

  size_t n = 0;
  long warm = 0;
  off_t size = FILE_SIZE;
  uint64_t gen = 0, t_start = 0;
  double disk_w = 0, disk_kib = 0, disk_f = 0;
  int err = 0;
  const char *failed = NULL;

  for (;;)
    {
      uint64_t t = now_ns ();
      if (warm >= opt_warmup)
        {
          if (t_start == 0)
            t_start = t;
          if (opt_count > 0 ? n >= (size_t) opt_count
              : (double) (t - t_start) >= opt_seconds * 1e9)
            break;
        }
      progress (m->name, n, t);

      /* Untimed preparation.  */
      gen++;
      memcpy (buf, &gen, sizeof gen);
      if (m->op == OP_APPEND && size >= FILE_SIZE + APPEND_LIMIT)
        {
          /* Back to FILE_SIZE; for the sync methods on the disk too,
             so that the next timed operation does not pay for it.  */
          if (ftruncate (setup, FILE_SIZE) != 0
              || (m->sync != S_NONE && fsync (setup) != 0))
            {
              err = errno;
              failed = "ftruncate";
              break;
            }
          size = FILE_SIZE;
        }
      if (m->op == OP_READ_DIRTY)
        {
          unsigned char c = 't';
          if (write (tokens[1], &c, 1) != 1 || read (acks[0], &c, 1) != 1
              || c != 'k')
            {
              err = EIO;
              failed = "the dirtying child";
              break;
            }
        }

      /* The operation, and what reached the disk meanwhile.  */
      unsigned long dw0 = 0, ds0 = 0, df0 = 0, dw1 = 0, ds1 = 0, df1 = 0;
      if (opt_disk != NULL)
        disk_stat_full (opt_disk, &dw0, &ds0, &df0);
      uint64_t t0 = now_ns ();
      switch (m->op)
        {
        case OP_OVERWRITE:
        case OP_APPEND:
          if (pwrite_all (fd, buf, BLOCK, m->op == OP_APPEND ? size : 0) != 0)
            failed = "pwrite";
          else if (m->sync == S_FDATASYNC && fdatasync (fd) != 0)
            failed = "fdatasync";
          else if (m->sync == S_FSYNC && fsync (fd) != 0)
            failed = "fsync";
          break;
        case OP_READ_CLEAN:
        case OP_READ_DIRTY:
          {
            ssize_t got = -1;
            if (m->sync == S_FDATASYNC && fdatasync (fd) != 0)
              {
                failed = "fdatasync";
                break;
              }
            if (m->sync == S_RWFRSYNC)
              {
                struct iovec iov = { buf, BLOCK };
                got = preadv2 (fd, &iov, 1, 0, RWF_RSYNC_BIT);
              }
            else if (m->sync == S_URING_FSYNC)
              {
                got = uring_fsync_read (&ring, fd, buf, BLOCK, 0);
                if (got < 0)
                  {
                    errno = -got;
                    got = -1;
                  }
              }
            else
              got = pread (fd, buf, BLOCK, 0);
            if (got != BLOCK)
              {
                if (got >= 0)
                  errno = EIO;
                failed = "pread";
              }
          }
          break;
        }
      uint64_t t1 = now_ns ();
      if (opt_disk != NULL)
        disk_stat_full (opt_disk, &dw1, &ds1, &df1);
      if (failed != NULL)
        {
          err = errno;
          break;
        }
      if (m->op == OP_APPEND)
        size += BLOCK;

      if (warm < opt_warmup)
        {
          warm++;
          continue;
        }
      if (n == cap)
        {
          uint64_t *bigger = realloc (lat, 2 * cap * sizeof *lat);
          if (bigger == NULL)
            {
              err = ENOMEM;
              failed = "storing the samples";
              break;
            }
          lat = bigger;
          cap *= 2;
        }
      lat[n++] = t1 - t0;
      disk_w += dw1 - dw0;
      disk_kib += (double) (ds1 - ds0) / 2;
      disk_f += df1 - df0;
    }

  if (ring.fd >= 0)
    close (ring.fd);
  if (child > 0)
    {
      close (tokens[1]);        /* the child sees end of file and exits */
      close (acks[0]);
      waitpid (child, NULL, 0);
    }
  close (fd);
  close (setup);

  if (failed != NULL)
    {
      setstatus (r, "error: %s: %s", failed, errtext (err));
      free (lat);
      return -1;
    }

  qsort (lat, n, sizeof *lat, cmp_u64);
  double total = 0;
  for (size_t i = 0; i < n; i++)
    total += (double) lat[i];
  r->measured = n > 0;
  r->ops_per_sec = total > 0 ? (double) n / (total / 1e9) : 0;
  r->p50_us = n > 0 ? (double) percentile (lat, n, 0.50) / 1e3 : 0;
  r->p99_us = n > 0 ? (double) percentile (lat, n, 0.99) / 1e3 : 0;
  if (opt_disk != NULL && n > 0)
    setstatus (r, "ok%s; disk per operation: %.2f writes %.1f KiB"
               " %.2f flushes", kept, disk_w / (double) n,
               disk_kib / (double) n, disk_f / (double) n);
  else
    setstatus (r, "ok%s", kept);
  free (lat);
  return 0;
}

/* 1 if the kernel implements O_RSYNC: openat2, which unlike open
   refuses unknown flags, accepts the bit, and F_GETFL shows it.
   Otherwise 0, with the reason in WHY.  */
static int
probe_rsync (char *why, size_t len)
{
  struct
  {
    uint64_t flags, mode, resolve;  /* struct open_how */
  } how = { (uint64_t) (__O_RSYNC | O_DSYNC | O_RDONLY), 0, 0 };
  long fd = syscall (SYS_openat2, AT_FDCWD, file_path, &how, sizeof how);
  if (fd < 0)
    {
      if (errno == EINVAL || errno == ENOSYS)
        snprintf (why, len, "n/a: kernel does not implement O_RSYNC");
      else
        snprintf (why, len, "n/a: the O_RSYNC probe (openat2) failed: %s",
                  errtext (errno));
      return 0;
    }
  int fl = fcntl ((int) fd, F_GETFL);
  close ((int) fd);
  if (fl < 0 || (fl & __O_RSYNC) == 0)
    {
      snprintf (why, len, "n/a: kernel does not implement O_RSYNC"
                " (accepted the bit but did not keep it)");
      return 0;
    }
  return 1;
}

static const char *
fs_name (uint32_t magic)
{
  switch (magic)
    {
    case 0xEF53u: return "ext2/3/4";
    case 0x58465342u: return "xfs";
    case 0x9123683Eu: return "btrfs";
    case 0x2FC12FC1u: return "zfs";
    case 0x6969u: return "nfs";
    case 0x794C7630u: return "overlayfs";
    case 0x65735546u: return "fuse";
    case 0xF2F52010u: return "f2fs";
    case SB_TMPFS_MAGIC: return "tmpfs";
    case SB_RAMFS_MAGIC: return "ramfs";
    default: return NULL;
    }
}

static void
print_row (const char *name, const struct result *r)
{
  if (opt_csv)
    {
      /* The status has no commas (see below), so no quoting.  */
      if (r->measured)
        printf ("%s,%.1f,%.2f,%.2f,%s\n", name, r->ops_per_sec, r->p50_us,
                r->p99_us, r->status);
      else
        printf ("%s,,,,%s\n", name, r->status);
    }
  else if (r->measured)
    printf ("%-20s %11.1f %10.2f %10.2f  %s\n", name, r->ops_per_sec,
            r->p50_us, r->p99_us, r->status);
  else
    printf ("%-20s %11s %10s %10s  %s\n", name, "-", "-", "-", r->status);
  fflush (stdout);
}

static void
usage (FILE *f)
{
  fprintf (f,
"usage: syncbench [--dir DIR] [--seconds S | --count N] [--warmup N]\n"
"                 [--methods LIST] [--csv] [--list] [--force-rsync]\n"
"                 [--elsewhere MIB] [--disk DEV]\n"
"  --dir DIR       directory of the test file (default: .)\n"
"  --seconds S     measure each method for S seconds (default 2)\n"
"  --count N       measure each method for N operations instead\n"
"  --warmup N      unmeasured operations before each method (default 20)\n"
"  --methods LIST  comma-separated method names (default: all; see --list)\n"
"  --csv           method,ops_per_sec,p50_us,p99_us,status\n"
"  --force-rsync   measure the O_RSYNC reads even if the kernel lacks\n"
"                  O_RSYNC (they are then ordinary O_DSYNC-opened reads)\n"
"  --elsewhere MIB before each read of a dirtied range, also leave MIB MiB\n"
"                  dirty elsewhere in the file (default 0)\n"
"  --disk DEV      count the requests that reach /sys/block/DEV during\n"
"                  each operation; the status gives them per operation\n");
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "dir", required_argument, NULL, 'd' },
    { "seconds", required_argument, NULL, 's' },
    { "count", required_argument, NULL, 'n' },
    { "warmup", required_argument, NULL, 'w' },
    { "methods", required_argument, NULL, 'm' },
    { "csv", no_argument, NULL, 'c' },
    { "list", no_argument, NULL, 'l' },
    { "force-rsync", no_argument, NULL, 'f' },
    { "elsewhere", required_argument, NULL, 'e' },
    { "disk", required_argument, NULL, 'D' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int selected[NMETHODS];
  memset (selected, 0, sizeof selected);
  const char *methods_arg = "all";
  int have_seconds = 0;
  int c;
  char *end;

  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    switch (c)
      {
      case 'd':
        opt_dir = optarg;
        break;
      case 's':
        errno = 0;
        opt_seconds = strtod (optarg, &end);
        if (errno != 0 || *end != '\0' || !(opt_seconds > 0)
            || opt_seconds > 86400)
          {
            fprintf (stderr, "syncbench: --seconds wants a positive number"
                     " of seconds, not '%s'\n", optarg);
            return 2;
          }
        have_seconds = 1;
        break;
      case 'n':
      case 'w':
        {
          errno = 0;
          long v = strtol (optarg, &end, 10);
          if (errno != 0 || *end != '\0' || end == optarg || v < (c == 'n')
              || v > 100000000)
            {
              fprintf (stderr, "syncbench: --%s wants a%s number,"
                       " not '%s'\n", c == 'n' ? "count" : "warmup",
                       c == 'n' ? " positive" : "n unsigned", optarg);
              return 2;
            }
          if (c == 'n')
            opt_count = v;
          else
            opt_warmup = v;
        }
        break;
      case 'm':
        methods_arg = optarg;
        break;
      case 'c':
        opt_csv = 1;
        break;
      case 'f':
        opt_force_rsync = 1;
        break;
      case 'e':
        errno = 0;
        opt_elsewhere = strtol (optarg, &end, 10);
        if (errno != 0 || *end != '\0' || end == optarg || opt_elsewhere < 0
            || opt_elsewhere > 4096)
          {
            fprintf (stderr, "syncbench: --elsewhere wants a number of MiB"
                     " from 0 to 4096, not '%s'\n", optarg);
            return 2;
          }
        break;
      case 'D':
        {
          char path[300];
          snprintf (path, sizeof path, "/sys/block/%s/stat", optarg);
          if (strchr (optarg, '/') != NULL || access (path, R_OK) != 0)
            {
              fprintf (stderr, "syncbench: --disk wants a block device"
                       " name of /sys/block (such as sda), not '%s'\n",
                       optarg);
              return 2;
            }
          opt_disk = optarg;
        }
        break;
      case 'l':
        for (size_t i = 0; i < NMETHODS; i++)
          printf ("%-20s %s\n", methods[i].name, methods[i].what);
        return 0;
      case 'h':
        usage (stdout);
        return 0;
      default:
        usage (stderr);
        return 2;
      }
  if (optind < argc)
    {
      fprintf (stderr, "syncbench: unexpected argument '%s'\n", argv[optind]);
      usage (stderr);
      return 2;
    }
  if (have_seconds && opt_count > 0)
    {
      fprintf (stderr, "syncbench: give --seconds or --count, not both\n");
      return 2;
    }

  /* Latencies of a few microseconds need a clock that resolves them.  */
  {
    uint64_t step = clock_step_ns ();
    if (step > 1000)
      {
        if (step == UINT64_MAX)
          fprintf (stderr, "syncbench: CLOCK_MONOTONIC did not advance in"
                   " 0.1 s of readings;");
        else
          fprintf (stderr, "syncbench: CLOCK_MONOTONIC advances in steps of"
                   " %.1f us, too coarse to time operations of a few"
                   " microseconds;", (double) step / 1e3);
        fprintf (stderr, " the kernel's clocksource is probably jiffies"
                 " (see /sys/devices/system/clocksource/clocksource0/"
                 "current_clocksource): run on a machine with a TSC or"
                 " another fine clocksource\n");
        return 1;
      }
  }

  /* --methods.  */
  {
    char *list = strdup (methods_arg), *save = NULL;
    if (list == NULL)
      return 1;
    for (char *w = strtok_r (list, ",", &save); w != NULL;
         w = strtok_r (NULL, ",", &save))
      {
        int found = 0;
        for (size_t i = 0; i < NMETHODS; i++)
          if (strcmp (w, "all") == 0 || strcmp (w, methods[i].name) == 0)
            selected[i] = found = 1;
        if (!found)
          {
            fprintf (stderr, "syncbench: unknown method '%s'; the methods"
                     " are (--list says what each does):\n", w);
            for (size_t i = 0; i < NMETHODS; i++)
              fprintf (stderr, "  %s\n", methods[i].name);
            return 2;
          }
      }
    free (list);
  }

  /* The directory: a file system we can write, and one that writes to
     a disk?  Any failure here stops the run, with the reason in the
     output as well as on stderr.  */
  char fatal[sizeof file_path + 600] = "";
  const char *hint = "";
  struct statfs sfs;
  uint32_t magic = 0;
  int fd = -1;
  if (statfs (opt_dir, &sfs) != 0)
    snprintf (fatal, sizeof fatal, "error: cannot use directory %s: %s",
              opt_dir, errtext (errno));
  else
    {
      magic = (uint32_t) sfs.f_type;
      snprintf (file_path, sizeof file_path, "%s/.syncbench.%ld", opt_dir,
                (long) getpid ());
      fd = open (file_path, O_RDWR | O_CREAT | O_EXCL, 0600);
      if (fd < 0)
        {
          int e = errno;
          file_path[0] = '\0';
          snprintf (fatal, sizeof fatal, "error: directory %s is not"
                    " writable: creating a test file: %s", opt_dir,
                    errtext (e));
          hint = "; give --dir a writable directory on the disk to measure";
        }
    }
  if (fd >= 0)
    {
      atexit (remove_file);
      signal (SIGINT, on_signal);
      signal (SIGTERM, on_signal);
      signal (SIGHUP, on_signal);
      if (posix_memalign ((void **) &buf, 4096, BLOCK) != 0)
        {
          fputs ("syncbench: out of memory\n", stderr);
          return 1;
        }
      memset (buf, 'x', BLOCK);
      for (off_t off = 0; off < FILE_SIZE && fatal[0] == '\0'; off += BLOCK)
        if (pwrite_all (fd, buf, BLOCK, off) != 0)
          snprintf (fatal, sizeof fatal, "error: writing the test file %s:"
                    " %s", file_path, errtext (errno));
      if (fatal[0] == '\0' && fsync (fd) != 0)
        snprintf (fatal, sizeof fatal, "error: fsync of the test file %s:"
                  " %s", file_path, errtext (errno));
      close (fd);
    }

  if (fatal[0] != '\0')
    {
      fprintf (stderr, "syncbench: %s%s\n", fatal, hint);
      struct result r = { 0, 0, 0, 0, "" };
      for (char *p = fatal; *p; p++)
        if (*p == ',')
          *p = ';';
      snprintf (r.status, sizeof r.status, "%s", fatal);
      if (opt_csv)
        {
          puts ("method,ops_per_sec,p50_us,p99_us,status");
          for (size_t i = 0; i < NMETHODS; i++)
            if (selected[i])
              print_row (methods[i].name, &r);
        }
      else
        printf ("syncbench: %s%s\n", fatal, hint);
      return 1;
    }

  const char *fs = fs_name (magic);
  const char *memfs = magic == SB_TMPFS_MAGIC ? "tmpfs"
    : magic == SB_RAMFS_MAGIC ? "ramfs" : NULL;
  char rsync_why[200] = "";
  int rsync_ok = probe_rsync (rsync_why, sizeof rsync_why);

  if (opt_csv)
    puts ("method,ops_per_sec,p50_us,p99_us,status");
  else
    {
      printf ("syncbench: %s (%s), %d KiB per operation, ", opt_dir,
              fs ? fs : "file system", BLOCK / 1024);
      if (opt_count > 0)
        printf ("%ld operations", opt_count);
      else
        printf ("%g s", opt_seconds);
      printf (" per method after %ld warm-up\n", opt_warmup);
      printf ("O_DSYNC=0%o O_SYNC=0%o O_RSYNC=0%o%s\n", (unsigned) O_DSYNC,
              (unsigned) O_SYNC, (unsigned) O_RSYNC,
              O_RSYNC == O_SYNC ? " (O_RSYNC is O_SYNC: unpatched headers)"
              : "");
      printf ("%-20s %11s %10s %10s  %s\n", "method", "ops/s", "p50 us",
              "p99 us", "status");
    }

  int status = 0;
  run_start_ns = last_progress_ns = now_ns ();
  for (size_t i = 0; i < NMETHODS; i++)
    {
      if (!selected[i])
        continue;
      const struct method *m = &methods[i];
      struct result r = { 0, 0, 0, 0, "" };
      if ((m->sync == S_ORSYNC || m->sync == S_RWFRSYNC) && !rsync_ok
          && !opt_force_rsync)
        snprintf (r.status, sizeof r.status, "%s", rsync_why);
      else if (m->sync == S_RWFRSYNC && RWF_RSYNC_BIT == 0)
        snprintf (r.status, sizeof r.status,
                  "n/a: built without -DOSYNC_RWF_RSYNC");
      else if (m->sync != S_NONE && memfs != NULL)
        setstatus (&r, "ignored: %s does not write to a disk", memfs);
      else
        {
          if (measure (m, &r) != 0)
            status = 1;
          else if (m->sync == S_ORSYNC && !rsync_ok)
            setstatus (&r, "forced: %s; these were ordinary reads",
                       rsync_why + strlen ("n/a: "));
        }
      progress_end ();
      for (char *p = r.status; *p; p++)
        if (*p == ',')
          *p = ';';
      print_row (m->name, &r);
    }
  if (status != 0)
    fprintf (stderr, "syncbench: some methods failed (see their status)\n");
  return status;
}
