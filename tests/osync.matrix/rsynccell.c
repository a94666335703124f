/* O_RSYNC at the disk, in the test guest.  Built against the patched
   headers, so O_RSYNC is __O_RSYNC.

   rsynccell DIR DEV N
     On a file in DIR (on the guest's ext4 disk DEV), measure N times
     each of the following and print "rsync CASE WRITES FLUSHES", the
     writes and flushes that reached the disk (/sys/block/DEV/stat)
     during the read, per read:
       plain         a plain read of a range a second process has just
                     written without syncing;
       dirty-read, dirty-pread, dirty-readv, dirty-preadv2
                     the same with O_RSYNC|O_DSYNC, one per system call;
       clean         an O_RSYNC|O_DSYNC read of a range made durable
                     by settle (fsync, sync, then a flush): nothing
                     has reached the disk since the last flush;
       written-back  an O_RSYNC|O_DSYNC read of a range the other
                     process wrote and wrote back with sync_file_range
                     (no flush since: clean in the page cache, not
                     durable);
       direct        an O_RSYNC|O_DSYNC|O_DIRECT read of a range the
                     other process overwrote with O_DIRECT, without
                     O_DSYNC (nothing in the page cache, not durable);
       dirty-splice  an O_RSYNC|O_DSYNC splice of a dirty range into a
                     pipe;
       sync-dirty    an O_RSYNC|O_SYNC read of a freshly dirtied range;
       dsync-atime, sync-atime
                     an O_RSYNC|O_DSYNC, then an O_RSYNC|O_SYNC read of
                     a clean file whose access time is two days old, so
                     that the read changes it (relatime);
       lazy-sync-atime
                     the O_RSYNC|O_SYNC one with the file system
                     remounted lazytime, where the access time the read
                     changes is only I_DIRTY_TIME until a sync;
       yard-fdatasync, yard-fsync, yard-written-back, yard-direct
                     the yardsticks: fdatasync and fsync of a freshly
                     dirtied range from a plain descriptor, and
                     fdatasync of a range written back as in
                     written-back and of one overwritten as in direct;
       yard-atime, yard-lazy-atime
                     fsync of a plain descriptor after a plain read that
                     changed the access time, as in sync-atime and in
                     lazy-sync-atime;
       yard-clean, yard-dsync-atime
                     fdatasync of a plain descriptor of the range made
                     durable as in clean, and after a plain read that
                     changed the access time, as in dsync-atime: what
                     the file system's ->fsync costs with nothing
                     pending (on ext4, a flush once the journal has
                     committed).
     Every read checks that it returned the data the other process
     wrote, and the atime cases that the read changed the access time.
     Also prints "getfl 0NNN", the sync bits F_GETFL reports for an
     O_RSYNC|O_DSYNC descriptor, and what the kernel does with the bare
     __O_RSYNC bit, bypassing the C library: "openat2 ok" or "openat2
     ERRNO-NAME"; "open 0NNN", the sync bits F_GETFL reports after the
     open system call; "open-alone 0NNN", the same for the bit alone
     (the new kernel adds O_SYNC); "setfl-clear 0NNN" and "setfl-set 0NNN", the
     sync bits after F_SETFL tried to clear the bit from such a
     descriptor and to set it on a plain one; "nowait ok" or "nowait
     ERRNO-NAME", a preadv2 with RWF_NOWAIT on such a descriptor;
     "proc ok" or "proc ERRNO-NAME", the open of a file of /proc, which
     has nothing a read could make durable (/proc/self/stat).
   rsynccell strict DIR
     Open a file in DIR with O_RSYNC|O_DSYNC and print "strict ok" or
     "strict ERRNO-NAME"; run it with GLIBC_TUNABLES=glibc.io.rsync=1.

   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "disk-stat.h"
#include "dirty.h"

#define SIZE OSYNC_DIRTY_SIZE
/* The sync bits: O_DSYNC, the kernel's __O_SYNC, __O_RSYNC.  */
#define SYNC_BITS (O_DSYNC | O_SYNC | __O_RSYNC)

static const char *dev;
static char path[4096];

static void
die (const char *what)
{
  printf ("rsynccell: %s: %s\n", what, strerror (errno));
  exit (1);
}

/* Set the access time two days back, keeping the modification time,
   and settle, so that the next read changes it under relatime.  */
static void
age_atime (void)
{
  struct timespec ts[2];
  clock_gettime (CLOCK_REALTIME, &ts[0]);
  ts[0].tv_sec -= 2 * 24 * 3600;
  ts[1].tv_sec = 0;
  ts[1].tv_nsec = UTIME_OMIT;
  if (utimensat (AT_FDCWD, path, ts, 0) != 0)
    die ("utimensat");
  osync_settle (path);
}

enum call { CALL_READ, CALL_PREAD, CALL_READV, CALL_PREADV2, CALL_SPLICE };

/* Read the range through FD with CALL, check it holds C, and add the
   disk writes and flushes the read caused to W and F.  */
static void
measure (int fd, enum call call, char c, double *w, double *f)
{
  static char buf[SIZE] __attribute__ ((aligned (4096)));
  struct iovec iov[2] = { { buf, SIZE / 2 }, { buf + SIZE / 2, SIZE / 2 } };
  int pipefd[2];
  unsigned long w0, f0, w1, f1;
  ssize_t n = -1;

  memset (buf, 0, sizeof buf);
  if (lseek (fd, 0, SEEK_SET) != 0)
    die ("lseek");
  disk_stat (dev, &w0, &f0);
  switch (call)
    {
    case CALL_READ:
      n = read (fd, buf, sizeof buf);
      break;
    case CALL_PREAD:
      n = pread (fd, buf, sizeof buf, 0);
      break;
    case CALL_READV:
      n = readv (fd, iov, 2);
      break;
    case CALL_PREADV2:
      n = preadv2 (fd, iov, 2, 0, 0);
      break;
    case CALL_SPLICE:
      if (pipe (pipefd) != 0 || fcntl (pipefd[0], F_SETPIPE_SZ, SIZE) < 0)
        die ("pipe");
      n = splice (fd, NULL, pipefd[1], NULL, SIZE, 0);
      disk_stat (dev, &w1, &f1);
      if (n == SIZE && read (pipefd[0], buf, SIZE) != SIZE)
        die ("read from the pipe");
      close (pipefd[0]);
      close (pipefd[1]);
      goto counted;
    }
  disk_stat (dev, &w1, &f1);
 counted:
  if (n != SIZE)
    die ("read");
  for (size_t i = 0; i < sizeof buf; i++)
    if (buf[i] != c)
      {
        printf ("rsynccell: the read returned byte %d at %zu, want %d\n",
                buf[i], i, c);
        exit (1);
      }
  *w += w1 - w0;
  *f += f1 - f0;
}

/* The yardsticks of the same run: the disk writes and flushes that
   fdatasync (SYNC 1) or fsync (SYNC 2) of FD cost, added to W and F.
   An O_RSYNC|O_DSYNC read of a dirty range must cost exactly what
   fdatasync costs, an O_RSYNC|O_SYNC read what fsync costs.  */
static void
measure_sync (int fd, int sync, double *w, double *f)
{
  unsigned long w0, f0, w1, f1;

  disk_stat (dev, &w0, &f0);
  if ((sync == 1 ? fdatasync (fd) : fsync (fd)) != 0)
    die ("fsync");
  disk_stat (dev, &w1, &f1);
  *w += w1 - w0;
  *f += f1 - f0;
}

/* Remount DIR with the MS_* FLAGS (MS_LAZYTIME or 0, relatime
   either way).  */
static void
remount (const char *dir, unsigned long flags)
{
  if (mount (NULL, dir, NULL, MS_REMOUNT | MS_RELATIME | flags, NULL) != 0)
    die ("remount");
}

static int
open_file (int flags)
{
  int fd = open (path, flags);
  if (fd < 0)
    die ("open");
  return fd;
}

static void
report (const char *name, double w, double f, int n)
{
  printf ("rsync %s %.2f %.2f\n", name, w / n, f / n);
}

/* The bare bit through the system calls themselves.  */
static void
kernel_flags (void)
{
  struct
  {
    unsigned long long flags, mode, resolve;    /* struct open_how */
  } how = { O_RDONLY | __O_RSYNC | O_DSYNC, 0, 0 };
  long fd = syscall (SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd >= 0)
    {
      printf ("openat2 ok\n");
      close (fd);
    }
  else
    printf ("openat2 %s\n", strerrorname_np (errno));

  fd = syscall (SYS_openat, AT_FDCWD, path, O_RDONLY | __O_RSYNC | O_DSYNC);
  if (fd < 0)
    die ("openat");
  printf ("open 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~__O_RSYNC);
  printf ("setfl-clear 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  close (fd);

  /* The bit alone, as a C library that passes it or a program that
     makes the system call itself asks for O_RSYNC alone.  */
  fd = syscall (SYS_openat, AT_FDCWD, path, O_RDONLY | __O_RSYNC);
  if (fd < 0)
    die ("openat");
  printf ("open-alone 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  close (fd);

  fd = syscall (SYS_openat, AT_FDCWD, path, O_RDONLY);
  if (fd < 0)
    die ("openat");
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) | __O_RSYNC);
  printf ("setfl-set 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  close (fd);

  /* A read that must not block cannot wait for the sync.  */
  fd = syscall (SYS_openat, AT_FDCWD, path, O_RDONLY | __O_RSYNC | O_DSYNC);
  if (fd < 0)
    die ("openat");
  char b[16];
  struct iovec iov = { b, sizeof b };
  if (preadv2 (fd, &iov, 1, 0, RWF_NOWAIT) >= 0)
    printf ("nowait ok\n");
  else
    printf ("nowait %s\n", strerrorname_np (errno));
  close (fd);

  /* A file of /proc has no ->fsync: nothing to make durable.  */
  fd = syscall (SYS_openat, AT_FDCWD, "/proc/self/stat",
                O_RDONLY | __O_RSYNC | O_DSYNC);
  if (fd >= 0)
    {
      printf ("proc ok\n");
      close (fd);
    }
  else
    printf ("proc %s\n", strerrorname_np (errno));
}

static int
strict (const char *dir)
{
  snprintf (path, sizeof path, "%s/rsynccell-strict", dir);
  int fd = open (path, O_RDWR | O_CREAT | O_RSYNC | O_DSYNC, 0600);
  if (fd >= 0)
    printf ("strict ok\n");
  else
    printf ("strict %s\n", strerrorname_np (errno));
  unlink (path);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "strict") == 0)
    return strict (argv[2]);
  if (argc != 4)
    {
      printf ("usage: rsynccell DIR DEV N | rsynccell strict DIR\n");
      return 2;
    }
  dev = argv[2];
  int n = atoi (argv[3]);
  snprintf (path, sizeof path, "%s/rsynccell", argv[1]);

  char buf[SIZE];
  osync_make_file (path);

  int fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC);
  printf ("getfl 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  close (fd);
  kernel_flags ();

  static const struct { const char *name; enum call call; } calls[] =
    {
      { "dirty-read", CALL_READ }, { "dirty-pread", CALL_PREAD },
      { "dirty-readv", CALL_READV }, { "dirty-preadv2", CALL_PREADV2 },
    };
  double w[21] = { 0 }, f[21] = { 0 };
  struct stat before, after;
  char c = 'b';
  for (int i = 0; i < n; i++)
    {
      osync_dirty (path, c, 0);
      fd = open_file (O_RDONLY);
      measure (fd, CALL_PREAD, c, &w[0], &f[0]);
      close (fd);
      osync_settle (path);
      for (size_t k = 0; k < 4; k++)
        {
          c = c == 'z' ? 'b' : c + 1;
          osync_dirty (path, c, 0);
          fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC);
          measure (fd, calls[k].call, c, &w[1 + k], &f[1 + k]);
          close (fd);
        }
      c = c == 'z' ? 'b' : c + 1;
      osync_dirty (path, c, 0);
      fd = open_file (O_RDONLY | O_RSYNC | O_SYNC);
      measure (fd, CALL_PREAD, c, &w[6], &f[6]);
      close (fd);

      /* Clean: right after settle, nothing written since the last
         flush.  */
      osync_settle (path);
      fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC);
      measure (fd, CALL_PREAD, c, &w[5], &f[5]);
      close (fd);
      /* Its yardstick: fdatasync of the same clean range.  */
      osync_settle (path);
      fd = open_file (O_RDONLY);
      measure_sync (fd, 1, &w[19], &f[19]);
      close (fd);

      /* The access time: an O_RSYNC|O_DSYNC and an O_RSYNC|O_SYNC
         read, the second also on a lazytime mount, and the yardsticks
         of the last two (fsync after a plain read) and of the first
         (fdatasync after a plain read): YARD is the sync it takes.  */
      static const struct { int flags, lazy, yard, slot; } at[] =
        {
          { O_DSYNC, 0, 0, 7 }, { O_SYNC, 0, 0, 8 }, { 0, 0, 2, 16 },
          { O_SYNC, 1, 0, 17 }, { 0, 1, 2, 18 }, { 0, 0, 1, 20 },
        };
      for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        {
          if (at[k].lazy)
            remount (argv[1], MS_LAZYTIME);
          age_atime ();
          fd = open_file (O_RDONLY | (at[k].yard ? 0 : O_RSYNC | at[k].flags));
          fstat (fd, &before);
          if (at[k].yard)
            {
              if (pread (fd, buf, sizeof buf, 0) != sizeof buf)
                die ("pread");
              fstat (fd, &after);
              measure_sync (fd, at[k].yard, &w[at[k].slot], &f[at[k].slot]);
            }
          else
            {
              measure (fd, CALL_PREAD, c, &w[at[k].slot], &f[at[k].slot]);
              fstat (fd, &after);
            }
          close (fd);
          if (at[k].lazy)
            remount (argv[1], 0);
          if (before.st_atim.tv_sec == after.st_atim.tv_sec)
            {
              printf ("rsynccell: the read did not change the access "
                      "time; is the disk mounted with relatime?\n");
              return 1;
            }
        }
      c = c == 'z' ? 'b' : c + 1;
      osync_settle (path);

      osync_dirty (path, c, 'w');
      fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC);
      measure (fd, CALL_PREAD, c, &w[9], &f[9]);
      close (fd);
      c = c == 'z' ? 'b' : c + 1;
      osync_settle (path);

      osync_dirty (path, c, 'd');
      fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC | O_DIRECT);
      measure (fd, CALL_PREAD, c, &w[10], &f[10]);
      close (fd);
      c = c == 'z' ? 'b' : c + 1;
      osync_settle (path);

      osync_dirty (path, c, 0);
      fd = open_file (O_RDONLY | O_RSYNC | O_DSYNC);
      measure (fd, CALL_SPLICE, c, &w[11], &f[11]);
      close (fd);
      c = c == 'z' ? 'b' : c + 1;
      osync_settle (path);

      /* The yardsticks: the same dirty range made durable with
         fdatasync, and with fsync, from a plain descriptor.  */
      for (int k = 0; k < 2; k++)
        {
          osync_dirty (path, c, 0);
          fd = open_file (O_RDONLY);
          measure_sync (fd, 1 + k, &w[12 + k], &f[12 + k]);
          close (fd);
          c = c == 'z' ? 'b' : c + 1;
          osync_settle (path);
        }

      /* The yardsticks of the written-back and O_DIRECT cases: what
         fdatasync costs for a range written back and not flushed, and
         for one overwritten with O_DIRECT.  */
      static const char hows[2] = { 'w', 'd' };
      for (int k = 0; k < 2; k++)
        {
          osync_dirty (path, c, hows[k]);
          fd = open_file (O_RDONLY);
          measure_sync (fd, 1, &w[14 + k], &f[14 + k]);
          close (fd);
          c = c == 'z' ? 'b' : c + 1;
          osync_settle (path);
        }
    }
  report ("plain", w[0], f[0], n);
  for (size_t k = 0; k < 4; k++)
    report (calls[k].name, w[1 + k], f[1 + k], n);
  report ("clean", w[5], f[5], n);
  report ("sync-dirty", w[6], f[6], n);
  report ("dsync-atime", w[7], f[7], n);
  report ("sync-atime", w[8], f[8], n);
  report ("written-back", w[9], f[9], n);
  report ("direct", w[10], f[10], n);
  report ("dirty-splice", w[11], f[11], n);
  report ("yard-fdatasync", w[12], f[12], n);
  report ("yard-fsync", w[13], f[13], n);
  report ("yard-written-back", w[14], f[14], n);
  report ("yard-direct", w[15], f[15], n);
  report ("yard-atime", w[16], f[16], n);
  report ("lazy-sync-atime", w[17], f[17], n);
  report ("yard-lazy-atime", w[18], f[18], n);
  report ("yard-clean", w[19], f[19], n);
  report ("yard-dsync-atime", w[20], f[20], n);
  unlink (path);
  return 0;
}
